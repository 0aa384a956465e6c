import {
  type Command,
  describe,
  EXIT,
  integerOption,
  parseCommandArgs,
  printable,
  UsageError,
} from './command.js';
import {
  DEFAULT_RATE_LIMIT_TIER,
  ENV_API_KEY,
  ENV_BASE_URL,
  type OperationName,
  OPERATIONS,
  type RateLimitTier,
} from '../contract.js';

const DEFAULT_PORT = 4010;
const TIERS: readonly RateLimitTier[] = [10, 100, 1000];
const STOP_SIGNALS = ['SIGINT', 'SIGTERM'] as const;

const OPTIONS = {
  port: { type: 'string' },
  seed: { type: 'string' },
  recognitions: { type: 'string' },
  tier: { type: 'string' },
  'window-ms': { type: 'string' },
  deprecate: { type: 'string', multiple: true },
  sunset: { type: 'string' },
  'deprecation-link': { type: 'string' },
  'rate-limit-headers': { type: 'string' },
  errors: { type: 'string' },
  pagination: { type: 'string' },
  'clock-skew': { type: 'string' },
  rename: { type: 'string', multiple: true },
} as const;

/** `employee-recognition mock`: the mock API on 127.0.0.1 until Ctrl-C or SIGTERM. */
export const mock: Command = {
  name: 'mock',
  summary: 'Start the mock API on 127.0.0.1, seeded with realistic data',
  help: `Usage: employee-recognition mock [options]

Starts the mock Employee Recognition API on 127.0.0.1 and prints the lines that point the SDK
at it. The mock keeps its data in memory, enforces scopes, rate limits and idempotency as the
contract says, and delivers signed events to the webhooks you register with webhooks.create,
http://127.0.0.1 receivers included. Ctrl-C or SIGTERM stops it (exit code 0).

Options:
  --port <n>             Port to listen on; 0 picks a free one (default ${DEFAULT_PORT})
  --seed <n>             Seeds the data and the test key: the same seed, the same mock (default 1)
  --recognitions <n>     How many recognitions to seed (default 300)
  --tier <10|100|1000>   Requests per window the test key may make (default ${DEFAULT_RATE_LIMIT_TIER})
  --window-ms <ms>       Length of the rate-limit window (default 60000, a minute)
  --deprecate <name>     Mark an operation deprecated, such as users.get (repeatable): its answers
                         carry Deprecation, Sunset and Link headers, and the SDK warns once
  --sunset <date>        When the deprecated operations stop answering (Sunset), such as 2027-06-30
  --deprecation-link <url>  The page about their deprecation (Link rel="deprecation")

Dialect: speak a standard variant instead of the contract's form (docs/testing.md, Dialects):
  --rate-limit-headers <family>  x-ratelimit (default), x-ratelimit-seconds, ratelimit,
                         ratelimit-structured or none
  --errors <form>        contract (default) or problem (RFC 9457 application/problem+json)
  --pagination <form>    cursor (default) or link (RFC 8288 Link rel="next")
  --clock-skew=<s>       Seconds the service clock (Date, webhook-timestamp) is off, such as
                         --clock-skew=-360 (behind) or --clock-skew=360 (ahead)
  --rename <t.f=name>    Send field f of records of type t as name, such as users.email=mail
                         (repeatable)
  -h, --help             Show this help`,
  options: OPTIONS,
  connects: false,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    if (parsed.positionals.length) {
      throw new UsageError(`mock takes no arguments, got "${parsed.positionals[0]}".`);
    }
    const { values } = parsed;
    const port = integerOption('port', values.port, 0, 65_535) ?? DEFAULT_PORT;
    const seed = integerOption('seed', values.seed, 0, 2 ** 32 - 1);
    const recognitions = integerOption('recognitions', values.recognitions, 0, 1_000_000);
    const windowMs = integerOption('window-ms', values['window-ms'], 1, 24 * 60 * 60 * 1000);
    const tier = values.tier === undefined ? undefined : Number(values.tier);
    if (tier !== undefined && !TIERS.includes(tier as RateLimitTier)) {
      throw new UsageError(`--tier must be one of ${TIERS.join(', ')}, not "${values.tier}".`);
    }
    const deprecations = deprecationOption(
      values.deprecate ?? [],
      values.sunset,
      values['deprecation-link'],
    );

    const dialect = dialectOption(values);

    // Loaded here, so `api` and `export` start without the mock's code.
    const { startMockServer, DEFAULT_REFERENCE_DATE } =
      await import('@employee-recognition/sdk/testing');
    // The mock announces its deprecations as of its reference date. A sunset before it is told,
    // not refused: the exit codes are versioned, and a past sunset is a case worth testing.
    if (
      values.sunset !== undefined &&
      Date.parse(values.sunset) < Date.parse(DEFAULT_REFERENCE_DATE)
    ) {
      process.stderr.write(
        `employee-recognition mock: --sunset ${printable(values.sunset)} comes before the deprecation date the mock announces, ${DEFAULT_REFERENCE_DATE.slice(0, 10)}: its answers say the operations were retired before they were deprecated.\n`,
      );
    }
    let server;
    try {
      server = await startMockServer({
        seed,
        recognitions,
        rateLimitWindowMs: windowMs,
        webhookFetch: logDelivery,
        ...(tier !== undefined && { tier: tier as RateLimitTier }),
        deprecations,
        dialect,
        port,
        host: '127.0.0.1',
      });
    } catch (error) {
      // The mock checks the dialect's values and names the member at fault.
      if (error instanceof TypeError || error instanceof RangeError) {
        throw new UsageError(error.message);
      }
      const reason =
        (error as NodeJS.ErrnoException).code === 'EADDRINUSE'
          ? `port ${port} is in use; choose another with --port`
          : describe(error);
      process.stderr.write(`Cannot start the mock API: ${reason}\n`);
      return EXIT.failure;
    }
    const { url, api } = server;
    // Listening before the exports are printed: whoever reads them may signal at once.
    const stopped = new Promise<string>((resolve) => {
      for (const name of STOP_SIGNALS) process.once(name, () => resolve(name));
    });
    process.stdout.write(`Mock Employee Recognition API at ${url}
Test key, with every scope: ${api.testKey}

Point the SDK at it:
  export ${ENV_BASE_URL}=${url}
  export ${ENV_API_KEY}=${api.testKey}

Webhooks registered with webhooks.create get signed events (http://127.0.0.1 receivers too).
${Object.keys(dialect).length ? `Dialect: ${JSON.stringify(dialect)}\n` : ''}${values.deprecate ? `Deprecated (their answers carry Deprecation, Sunset and Link): ${Object.keys(deprecations).join(', ')}\n` : ''}Ctrl-C stops it.
`);
    const signal = await stopped;
    process.stdout.write(`\n${signal}: stopping the mock API.\n`);
    await server.close();
    return EXIT.ok;
  },
};

/** The dialect options as the mock's `dialect` option; the mock checks the values. */
function dialectOption(values: {
  'rate-limit-headers'?: string | undefined;
  errors?: string | undefined;
  pagination?: string | undefined;
  'clock-skew'?: string | undefined;
  rename?: string[] | undefined;
}): Record<string, unknown> {
  const skew = values['clock-skew'];
  if (skew !== undefined && !/^-?\d{1,9}$/.test(skew)) {
    throw new UsageError(`--clock-skew must be a whole number of seconds, not "${skew}".`);
  }
  const renamedFields: Record<string, Record<string, string>> = {};
  for (const rename of values.rename ?? []) {
    const match = /^(\w+)\.([^=]+)=(.+)$/.exec(rename);
    if (!match) {
      throw new UsageError(
        `--rename takes type.field=name, such as users.email=mail; not "${rename}".`,
      );
    }
    (renamedFields[match[1]!] ??= {})[match[2]!] = match[3]!;
  }
  return {
    ...(values['rate-limit-headers'] !== undefined && {
      rateLimitHeaders: values['rate-limit-headers'],
    }),
    ...(values.errors !== undefined && { errors: values.errors }),
    ...(values.pagination !== undefined && { pagination: values.pagination }),
    ...(skew !== undefined && { clockSkewSeconds: Number(skew) }),
    ...(values.rename && { renamedFields }),
  };
}

/** `--deprecate`, `--sunset` and `--deprecation-link` as the mock's `deprecations` option. */
function deprecationOption(
  names: string[],
  sunset: string | undefined,
  link: string | undefined,
): Partial<Record<OperationName, { sunsetAt?: string; deprecationLink?: string }>> {
  if (names.length === 0 && (sunset !== undefined || link !== undefined)) {
    throw new UsageError('--sunset and --deprecation-link describe the operations of --deprecate.');
  }
  if (sunset !== undefined && Number.isNaN(Date.parse(sunset))) {
    throw new UsageError(`--sunset must be a date, such as 2027-06-30, not "${sunset}".`);
  }
  const deprecations: Partial<
    Record<OperationName, { sunsetAt?: string; deprecationLink?: string }>
  > = {};
  for (const name of names) {
    if (!Object.hasOwn(OPERATIONS, name)) {
      throw new UsageError(
        `--deprecate takes an operation, one of ${Object.keys(OPERATIONS).join(', ')}; not "${name}".`,
      );
    }
    deprecations[name as OperationName] = {
      ...(sunset !== undefined && { sunsetAt: sunset }),
      ...(link !== undefined && { deprecationLink: link }),
    };
  }
  return deprecations;
}

// Deliveries go out through the global fetch, as they would without this; the log line shows a
// developer what reached their receiver.
async function logDelivery(url: string, init: RequestInit): Promise<Response> {
  const type =
    typeof init.body === 'string' ? (JSON.parse(init.body) as { type?: string }).type : undefined;
  try {
    const response = await fetch(url, init);
    process.stdout.write(`webhook ${type} -> ${url}: ${response.status}\n`);
    return response;
  } catch (error) {
    process.stdout.write(`webhook ${type} -> ${url}: failed, ${describe(error)}\n`);
    throw error;
  }
}
