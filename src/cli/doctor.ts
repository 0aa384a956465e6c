import { readFile } from 'node:fs/promises';
import { Client, ConfigurationError, EmployeeRecognitionError } from '@employee-recognition/sdk';
import type { DoctorReport } from '@employee-recognition/sdk/doctor';
import {
  DEFAULT_AUTH_URL,
  ENV_API_KEY,
  ENV_AUTH_URL,
  ENV_BASE_URL,
  ENV_LOG_LEVEL,
  ENV_WEBHOOK_SECRET,
} from '../contract.js';
import {
  type Command,
  CONNECTION,
  describe,
  EXIT,
  parseCommandArgs,
  reportError,
  stderrLogger,
  UsageError,
} from './command.js';
import { printReport, recorderFor } from './traffic.js';
import { loadReceiver } from './webhooks.js';

/** The OAuth client the doctor authenticates as, where no API key is set (as docs/cli.md says). */
const ENV_CLIENT_ID = 'RECOGNITION_CLIENT_ID';
const ENV_CLIENT_SECRET = 'RECOGNITION_CLIENT_SECRET';

const OPTIONS = {
  json: { type: 'boolean' },
  markdown: { type: 'boolean' },
  write: { type: 'boolean' },
  receiver: { type: 'string' },
  url: { type: 'string' },
  delivery: { type: 'string' },
  'secret-from': { type: 'string' },
  ...CONNECTION.options,
  record: { type: 'string' },
} as const;

/** `employee-recognition doctor`: the service checked against every assumption the SDK makes. */
export const doctor: Command = {
  name: 'doctor',
  summary: 'Check the service against every assumption the SDK makes; diagnose a webhook delivery',
  help: `Usage: employee-recognition doctor [--json | --markdown] [--write] [--receiver <module> [--url <url>]]
       employee-recognition doctor webhook --delivery <file> [--secret-from <file>] [--json | --markdown]

Checks the service of --base-url, else ${ENV_BASE_URL}, with the credential of ${ENV_API_KEY}
(or the OAuth client of ${ENV_CLIENT_ID} and ${ENV_CLIENT_SECRET}, at ${ENV_AUTH_URL}): runtime,
connection, credential, scopes, rate-limit, clock, errors, pagination, records, deprecations,
webhooks, idempotency. Read-only; at most 25 requests, leaving 10 % of the rate-limit window.
Progress goes to stderr, the report to stdout. No report holds the key, a token, a secret or a
record's values.

  doctor webhook --delivery <file>
      Why a delivery's signature does not verify: its scheme, its timestamp's skew, the secret's
      form, and whether the signature matches the body, or the body as a framework re-serialized
      it. <file> is the request as captured: raw HTTP, or JSON with headers and body.

Options:
  --json                 The report as JSON: { sdk, node, baseUrl, ok, checks }
  --markdown             The report in Markdown, to paste into a support ticket
  --write                Also check webhooks:write and the Idempotency-Key replay, with a webhook
                         created disabled and deleted (an rk_test_ key only)
  --receiver <module>    A module exporting your webhook receiver: the plan webhooks sync would make
  --url <url>            The receiver's URL for that plan (default: the only webhook's)
  --delivery <file>      The captured delivery (doctor webhook)
  --secret-from <file>   The webhook secret, read from this file (default: $${ENV_WEBHOOK_SECRET})
${CONNECTION.help}
  --record <file>        Also write every request of the run to <file> as HAR 1.2, redacted:
                         with the report, what a support ticket needs
  -h, --help             Show this help

Exit codes: 0 no check failed, 1 a check failed, 2 bad arguments.`,
  options: OPTIONS,
  connects: true,
  async run(args) {
    const parsed = parseCommandArgs(this, args, OPTIONS);
    if (!parsed) return EXIT.ok;
    const { values, positionals } = parsed;
    const [subcommand, extra] = positionals;
    if (values.json && values.markdown)
      throw new UsageError('Choose one of --json and --markdown.');
    const render = (report: DoctorReport) => printReport(report, values);

    if (subcommand === 'webhook') {
      if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
      for (const option of ['write', 'receiver', 'url', 'base-url', 'record'] as const) {
        if (values[option] !== undefined) {
          throw new UsageError(`--${option} goes with doctor, not doctor webhook.`);
        }
      }
      if (values.delivery === undefined) {
        throw new UsageError('--delivery is required: the file holding the captured delivery.');
      }
      const text = await readArgumentFile('delivery', values.delivery);
      const secretFile = values['secret-from'];
      const secret =
        secretFile === undefined
          ? process.env[ENV_WEBHOOK_SECRET] || undefined
          : await readArgumentFile('secret-from', secretFile);
      const sdk = await import('@employee-recognition/sdk/doctor');
      let delivery;
      try {
        delivery = sdk.readCapturedDelivery(text);
      } catch (error) {
        if (error instanceof ConfigurationError)
          throw new UsageError(`--delivery: ${error.message}`);
        throw error;
      }
      return render(await sdk.diagnoseDelivery(delivery, { secret }));
    }
    if (subcommand !== undefined) {
      throw new UsageError(`Unknown subcommand "${subcommand}": doctor, or doctor webhook.`);
    }
    for (const option of ['delivery', 'secret-from'] as const) {
      if (values[option] !== undefined)
        throw new UsageError(`--${option} goes with doctor webhook.`);
    }
    if (values.url !== undefined && values.receiver === undefined) {
      throw new UsageError('--url goes with --receiver: the receiver’s URL for the sync plan.');
    }
    const apiKey = process.env[ENV_API_KEY] || undefined;
    if (values.write && !apiKey?.startsWith('rk_test_')) {
      throw new UsageError(
        `--write creates and deletes a webhook: it runs only with an rk_test_ key in ${ENV_API_KEY}${apiKey ? ', and this one is not' : ''}, never against live data.`,
      );
    }
    const receiver =
      values.receiver === undefined ? undefined : await loadReceiver(values.receiver);

    // The report is the doctor's output; debug lines would print the sampled records' bodies.
    const recorder = await recorderFor(values.record);
    const logLevel =
      process.env[ENV_LOG_LEVEL]?.trim().toLowerCase() === 'debug' ? 'info' : undefined;
    let client: Client;
    let credential: string | { kind: 'oauth'; expiresAt: number | undefined };
    const secrets: string[] = [];
    try {
      const clientId = process.env[ENV_CLIENT_ID] || undefined;
      const clientSecret = process.env[ENV_CLIENT_SECRET] || undefined;
      if (apiKey === undefined && clientId !== undefined && clientSecret !== undefined) {
        const oauth = await import('@employee-recognition/sdk/oauth');
        let expiresIn: number | undefined;
        // The token answer's expires_in, read on its way to the provider: the provider keeps it.
        const tokens = oauth.clientCredentials({
          clientId,
          clientSecret,
          issuer: process.env[ENV_AUTH_URL] || DEFAULT_AUTH_URL,
          logger: stderrLogger(),
          fetch: async (input, init) => {
            const response = await (recorder?.fetch ?? fetch)(input, init);
            const answer = (await response
              .clone()
              .json()
              .catch(() => undefined)) as { expires_in?: unknown } | undefined;
            if (typeof answer?.expires_in === 'number') expiresIn = answer.expires_in;
            return response;
          },
        });
        secrets.push(clientSecret, await tokens());
        credential = {
          kind: 'oauth',
          expiresAt: expiresIn === undefined ? undefined : Date.now() + expiresIn * 1000,
        };
        client = new Client({
          apiKey: tokens,
          ...CONNECTION.clientOptions(values),
          logger: stderrLogger(),
          logLevel,
          fetch: recorder?.fetch,
        });
      } else {
        client = new Client({
          ...CONNECTION.clientOptions(values),
          logger: stderrLogger(),
          logLevel,
          fetch: recorder?.fetch,
        });
        credential = apiKey!;
        secrets.push(apiKey!);
      }
    } catch (error) {
      await recorder?.close();
      return reportError(error);
    }
    const sdk = await import('@employee-recognition/sdk/doctor');
    try {
      const report = await sdk.diagnose(client, {
        credential,
        fetch: recorder?.fetch,
        write: values.write,
        receiver,
        receiverUrl: values.url,
        onCheck: (check) => process.stderr.write(`doctor: ${check.id} ${check.status}\n`),
      });
      return await render(sdk.redactReport(report, secrets));
    } catch (error) {
      if (error instanceof ConfigurationError) throw new UsageError(error.message);
      if (error instanceof EmployeeRecognitionError) return reportError(error);
      throw error;
    } finally {
      await recorder?.close();
    }
  },
};

/** A file named by option `--name`, as text. */
async function readArgumentFile(name: string, path: string): Promise<string> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    throw new UsageError(`--${name}: cannot read ${path}: ${describe(error)}`);
  }
}
