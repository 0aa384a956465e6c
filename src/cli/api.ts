import { Client, ConfigurationError } from '@employee-recognition/sdk';
import {
  type Command,
  EXIT,
  parseCommandArgs,
  readJsonArgument,
  reportError,
  stderrLogger,
  UsageError,
} from './command.js';
import { recorderFor } from './traffic.js';

const METHODS = ['GET', 'POST', 'PATCH', 'DELETE'] as const;
/** The raw request's options that come from the command line, as the client names them. */
const ARGUMENTS: readonly string[] = ['path', 'query', 'body'];
type Method = (typeof METHODS)[number];

/** `employee-recognition api`: one raw call through the SDK, its JSON body on stdout. */
export const api: Command = {
  name: 'api',
  summary: 'Make one API call through the SDK and print the JSON answer',
  help: `Usage: employee-recognition api <METHOD> <path> [options]

Makes one call through the SDK's raw requests (client.get, post, patch, delete) with the
credential and base URL of the environment (RECOGNITION_API_KEY, RECOGNITION_BASE_URL), and
with the SDK's retries, timeouts and rate-limit pacing. Prints the JSON body: indented on a
terminal, on one line when piped. An error prints its status, code, message and request id to
stderr, with exit code 1.

Arguments:
  <METHOD>               ${METHODS.join(', ')}
  <path>                 The path, starting with /v1/, such as /v1/recognitions

Options:
  --query <key=value>    A query parameter; repeat for more
  --record <file>        Also write the call and its answer to <file> as HAR 1.2, redacted
                         (employee-recognition traffic check reads it)
  --data <json|@file>    The JSON body of a POST, PATCH or DELETE; @file reads it from a
                         file, @- from standard input
  -h, --help             Show this help

Examples:
  employee-recognition api GET /v1/recognitions --query limit=5
  employee-recognition api POST /v1/recognitions --data '{"recipient_id":"…","message":"Thanks!"}'`,
  async run(args) {
    const parsed = parseCommandArgs(this, args, {
      query: { type: 'string', multiple: true },
      data: { type: 'string' },
      record: { type: 'string' },
    });
    if (!parsed) return EXIT.ok;
    const { values, positionals } = parsed;
    const [methodName, path, extra] = positionals;
    if (methodName === undefined || path === undefined) {
      throw new UsageError('Give a method and a path, such as: api GET /v1/users');
    }
    const method = methodName.toUpperCase() as Method;
    if (!METHODS.includes(method)) {
      throw new UsageError(`The method must be one of ${METHODS.join(', ')}, not "${methodName}".`);
    }
    if (extra !== undefined) throw new UsageError(`Unexpected argument "${extra}".`);
    if (method === 'GET' && values.data !== undefined) {
      throw new UsageError('A GET has no body: pass its parameters with --query.');
    }
    const query = parseQuery(values.query ?? []);
    const body =
      values.data === undefined ? undefined : await readJsonArgument('data', values.data);

    const recorder = await recorderFor(values.record);
    let result: unknown;
    try {
      const client = new Client({ logger: stderrLogger(), fetch: recorder?.fetch });
      result =
        method === 'GET'
          ? await client.get(path, { query })
          : await client[methodKey(method)](path, { query, body });
    } catch (error) {
      // The path and the query are arguments: the client's refusal of one is bad usage.
      if (error instanceof ConfigurationError && ARGUMENTS.includes(error.option)) {
        // Nothing was sent: a recording there was would stay as it was.
        recorder?.discard();
        throw new UsageError(error.message);
      }
      return reportError(error);
    } finally {
      await recorder?.close();
    }
    // 204 answers (a delete) have no body to print.
    if (result !== undefined) {
      const json = process.stdout.isTTY ? JSON.stringify(result, null, 2) : JSON.stringify(result);
      process.stdout.write(`${json}\n`);
    }
    return EXIT.ok;
  },
};

function methodKey(method: Exclude<Method, 'GET'>) {
  return method.toLowerCase() as Lowercase<typeof method>;
}

function parseQuery(pairs: string[]): Record<string, string> {
  const query: Record<string, string> = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new UsageError(`--query takes key=value, not "${pair}".`);
    const key = pair.slice(0, at);
    if (Object.hasOwn(query, key)) throw new UsageError(`--query ${key} is given twice.`);
    query[key] = pair.slice(at + 1);
  }
  return query;
}
