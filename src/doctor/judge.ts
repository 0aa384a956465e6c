/**
 * The one judge of an answer, for the live doctor (diagnose()) and `traffic check`: it hands the
 * answer to the SDK itself, a Client whose fetch gives back that answer, and calls the operation
 * as an app would, a list to the end of its pages. So its verdict is the SDK's own reading (the
 * envelope, the pagination, the validation and the header parsing the Client runs), never a copy
 * of it: an answer fails exactly when the call, or its `for await` to the end, rejects.
 */
import type { Client } from '../client.js';
import type { OperationName } from '../contract.js';

/** One recorded or probed answer, as the judge reads it. */
export interface Answer {
  /** The HTTP status: an answer with none (0) is not judged. */
  status: number;
  /** The answer's headers. */
  headers: Headers;
  /** The body's bytes or text, as received (decoded from base64 by the HAR reader). */
  body: string | Uint8Array | undefined;
}

/** How a list leads on from a page, as the SDK follows it. */
type Paging = 'link' | 'cursor' | 'page' | 'last';

/** The error body's form, as the SDK read it: `other` leaves the error its status's code only. */
type ErrorShape = 'contract' | 'problem+json' | 'other';

/** What the SDK makes of one answer. */
export interface Judgement {
  operation: OperationName;
  status: number;
  /**
   * For a 2xx answer: the error its call (or the `for await` paging on from it) rejects with, or
   * undefined when the SDK reads it. For an error answer: the error every call gets from it.
   */
  error:
    | {
        name: string;
        message: string;
        code: string | undefined;
        /** Of an InvalidResponseError: the paths at fault, such as `pagination`. */
        paths: string[];
      }
    | undefined;
  /** Of an error answer: the form its body was read in. */
  errorShape: ErrorShape | undefined;
  /** Of a list's 2xx answer the SDK read: how it pages on (a `Link` first, as the SDK follows). */
  paging: Paging | undefined;
}

/** The bodies of the writes the judge calls: valid, so nothing fails before the answer is read. */
const BODIES: Record<string, unknown> = {
  recognitions: { recipient_id: '00000000-0000-4000-8000-000000000000', message: 'doctor' },
  webhooks: { url: 'https://receiver.invalid/doctor', events: ['*'] },
};
const ID = 'judged';
/** The lists the SDK pages: read to their end, as `for await` does. */
const PAGED = /^(?:recognitions|users|rewards|teams)\.list$/;

type Method = (...args: unknown[]) => PromiseLike<unknown> & Partial<PagedList>;

/** Calls `operation` on `client` as an app does (`users.get(id)`); a paged list to its end. */
function call(client: Client, operation: OperationName, page: number | undefined) {
  const [group, name] = operation.split('.') as [string, string];
  const method = (client as unknown as Record<string, Record<string, Method>>)[group]![name]!;
  const resource = (client as unknown as Record<string, object>)[group];
  if (PAGED.test(operation)) return drain(method.call(resource, { page }) as PagedList);
  const args =
    name === 'create'
      ? [BODIES[group]]
      : name === 'update'
        ? [ID, { enabled: false }]
        : name === 'get' || name === 'delete'
          ? [ID]
          : [];
  return method.apply(resource, args);
}

/** The page that ends any list: where the judged answer leads, the SDK finds the list's end. */
const LAST_PAGE = '{"data":[],"pagination":{"page":1,"total_pages":1,"next_cursor":null}}';

interface PagedList {
  then: PromiseLike<Pageable>['then'];
}
interface Pageable extends AsyncIterable<unknown> {
  pagination: unknown;
  nextPageLink(): string | undefined;
  nextPageParams(): unknown;
}

/** Reads a list as `for await` does, and says how its first page leads on. */
async function drain(list: PagedList): Promise<Paging> {
  const first = await list;
  const paging: Paging = first.nextPageLink()
    ? 'link'
    : first.nextPageParams() === null
      ? 'last'
      : typeof (first.pagination as { next_cursor?: unknown }).next_cursor === 'string'
        ? 'cursor'
        : 'page';
  for await (const _record of first) {
    // Each record is read as an app would; the next page is the list's end.
  }
  return paging;
}

/**
 * What the SDK makes of `answer` to `operation`, asked of `client` itself (its validation and
 * paging), with nothing sent: the answer comes from a fetch of the judge's, and the request to
 * any next page gets an empty last page. `url` is the request's, for the base URL a `Link` must
 * lie below; `page` the page number the request asked for, if any (page mode). Never rejects.
 */
export async function judge(
  client: Client,
  operation: OperationName,
  url: string,
  answer: Answer,
  page?: number,
): Promise<Judgement> {
  let answered = false;
  const fetch = async () => {
    if (answered)
      return new Response(LAST_PAGE, { headers: { 'content-type': 'application/json' } });
    answered = true;
    // A Response may carry no body with these statuses.
    const empty = answer.status === 204 || answer.status === 304 || answer.body === undefined;
    return new Response(empty ? null : (answer.body as BodyInit), {
      status: answer.status,
      headers: answer.headers,
    });
  };
  const overrides = {
    fetch,
    maxRetries: 0,
    rateLimit: 'off',
    validateResponses: 'warn',
    logLevel: 'off',
    hooks: {},
    instrumentation: undefined,
  } as const;
  let replay: Client;
  try {
    replay = client.withOptions({ ...overrides, baseUrl: baseUrlOf(url) });
  } catch {
    // A URL no client could be made for (user info in it): the client's own base URL.
    replay = client.withOptions(overrides);
  }
  const ok = answer.status >= 200 && answer.status < 300;
  const judgement: Judgement = {
    operation,
    status: answer.status,
    error: undefined,
    errorShape: undefined,
    paging: undefined,
  };
  try {
    const paging = await call(replay, operation, page);
    if (typeof paging === 'string') judgement.paging = paging as Paging;
  } catch (error) {
    // Read by its members, not by class: the CLI bundles this module beside the package's Client.
    const failure = error as Partial<Error & { code: unknown; status: number; issues: unknown }>;
    judgement.error = {
      name: failure?.name ?? 'Error',
      message: failure?.message ?? String(error),
      code: typeof failure?.code === 'string' ? failure.code : undefined,
      paths: Array.isArray(failure?.issues)
        ? failure.issues.map((issue: { path?: unknown }) => String(issue.path))
        : [],
    };
    if (!ok && typeof failure?.status === 'number') {
      judgement.errorShape = errorShapeOf(failure as ReadError);
    }
  }
  return judgement;
}

/**
 * The form of an error body as the SDK read it: RFC 9457 leaves a `type`; the SDK's own body a
 * code and message of its own; anything else only the status's code and the body's text.
 */
function errorShapeOf(error: ReadError): ErrorShape {
  if (error.type !== undefined) return 'problem+json';
  return error.message.startsWith(`${error.status}`) ? 'other' : 'contract';
}

/** The members of the SDK's ApiError the judge reads. */
interface ReadError {
  status: number;
  message: string;
  type?: string | undefined;
}

/** The base URL of a request to the API: what precedes `/v1/` in its URL. */
function baseUrlOf(url: string): string {
  return url.slice(0, url.indexOf('/v1/'));
}

/** A body's JSON, or undefined when it is none or nests too deep to walk. */
export function parsed(body: Answer['body']): unknown {
  if (body === undefined) return undefined;
  const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
  if (nestsTooDeep(text)) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * How deep a file's JSON may nest where the doctor and `traffic` walk or re-serialize it: far
 * beyond any answer of the API, and far below what exhausts the stack (a body 50,000 deep).
 */
export const MAX_NESTING = 256;

/**
 * Whether JSON text nests deeper than {@link MAX_NESTING}: one pass over the text, brackets in
 * strings left out, so no recursion ever sees a body that deep.
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const char = text.charCodeAt(index);
    if (inString) {
      if (char === 0x5c) index++;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      if (++depth > MAX_NESTING) return true;
    } else if (char === 0x5d || char === 0x7d) depth--;
  }
  return false;
}
