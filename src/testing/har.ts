// HAR 1.2 (http://www.softwareishard.com/blog/har-12-spec/), the parts a recording writes and a
// replay reads: browsers' network panels, Polly.js and @mswjs/source open the same files.
import { API_VERSION_PREFIX, OPERATIONS, type OperationName } from '../contract.js';
import { EmployeeRecognitionError } from '../core/errors.js';

/** A name and value: a header, query parameter or form field of a {@link HarEntry}. */
export interface HarNameValue {
  /** As sent or received; header names lower-case. */
  name: string;
  /** The value, or `REDACTED`. */
  value: string;
}

/** The body of a recorded request. */
export interface HarPostData {
  /** The request's `Content-Type`. */
  mimeType: string;
  /** The body as text, redacted. */
  text?: string | undefined;
  /** A form's fields, redacted. */
  params?: HarNameValue[] | undefined;
  /** Set when the body was cut at the recorder's `maxBodyBytes`. */
  comment?: string | undefined;
  /**
   * The JSON paths (`message`, `sender.name`) or form fields whose values the redaction changed:
   * a replay matches any value there.
   */
  _redacted?: string[] | undefined;
}

/** One request and its answer. */
export interface HarEntry {
  /** When the request started: ISO 8601. */
  startedDateTime: string;
  /** Milliseconds from the request to the answer's last byte. */
  time: number;
  /** The request as the app made it: its URL, headers and body, redacted. */
  request: {
    /** The HTTP method, upper-case. */
    method: string;
    /** The absolute URL, its secret query parameters redacted. */
    url: string;
    /** `HTTP/1.1`: fetch does not say which version carried it. */
    httpVersion: string;
    /** Always empty: cookies are headers here, and redacted. */
    cookies: HarNameValue[];
    /** The headers the app gave, credentials redacted. */
    headers: HarNameValue[];
    /** The URL's query parameters, as in `url`. */
    queryString: HarNameValue[];
    /** The body, when the request had one. */
    postData?: HarPostData | undefined;
    /** -1: not known to fetch. */
    headersSize: number;
    /** The body's length in bytes, 0 without one. */
    bodySize: number;
    /** A note on the request. */
    comment?: string | undefined;
  };
  /** The answer as the app got it, redacted. */
  response: {
    /** 0 when no answer came (a dropped connection, a refused one): a replay drops it again. */
    status: number;
    /** The status text the server sent. */
    statusText: string;
    /** `HTTP/1.1`, or empty without an answer. */
    httpVersion: string;
    /** Always empty: cookies are headers here, and redacted. */
    cookies: HarNameValue[];
    /** The answer's headers, lower-case names, secrets redacted. */
    headers: HarNameValue[];
    /** The answer's body. */
    content: {
      /** The body's length in bytes as received, before any truncation. */
      size: number;
      /** The answer's `Content-Type`. */
      mimeType: string;
      /** The body as text (base64 when `encoding` says so), redacted. */
      text?: string | undefined;
      /** `base64` for a body that is not text. */
      encoding?: string | undefined;
      /** Set when the body was cut at the recorder's `maxBodyBytes`. */
      comment?: string | undefined;
    };
    /** The `Location` header, or empty. */
    redirectURL: string;
    /** -1: not known to fetch. */
    headersSize: number;
    /** The body's length in bytes, -1 without an answer. */
    bodySize: number;
    /** Why there is no answer, for a status of 0. */
    comment?: string | undefined;
  };
  /** Always empty: a recording holds no cache state. */
  cache: Record<string, never>;
  /** Milliseconds sending (0: not known to fetch), waiting for the headers, reading the body. */
  timings: {
    /** 0: fetch does not say. */
    send: number;
    /** From the request to the answer's headers. */
    wait: number;
    /** From the headers to the body's last byte. */
    receive: number;
  };
  /** A note on the entry. */
  comment?: string | undefined;
  /**
   * The order its request was sent in the recording, from 1: entries are written as their
   * answers complete, and the finished file lists them by this.
   */
  _sequence?: number | undefined;
}

/** A HAR 1.2 file, as `JSON.parse` of a recording gives it. */
export interface Har {
  /** The recording: HAR 1.2, written by this SDK, its entries oldest first. */
  log: {
    /** `1.2`. */
    version: string;
    /** What wrote it: this SDK and its version. */
    creator: {
      /** `@employee-recognition/sdk`. */
      name: string;
      /** The SDK's version. */
      version: string;
    };
    /** The requests and their answers, in the order they completed. */
    entries: HarEntry[];
    /** A note, such as how many entries were left out past `maxEntries`. */
    comment?: string | undefined;
  };
}

// The operations' path templates as patterns, most specific (longest) first.
const TEMPLATES = /* @__PURE__ */ Object.entries(OPERATIONS).map(([name, template]) => {
  const [method, path] = template.split(' ') as [string, string];
  const pattern = new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
  return { name: name as OperationName, method, pattern };
});

/**
 * The operation a request is, by its method and URL: the path below the API's version prefix
 * (so that a base URL with a path of its own still matches); undefined for any other request,
 * such as a token request or an endpoint this SDK does not know.
 */
export function operationOf(method: string, url: string): OperationName | undefined {
  let pathname: string;
  try {
    pathname = new URL(url).pathname;
  } catch {
    return undefined;
  }
  const at = pathname.indexOf(`${API_VERSION_PREFIX}/`);
  if (at < 0) return undefined;
  const path = pathname.slice(at).replace(/\/$/, '');
  return TEMPLATES.find((each) => each.method === method && each.pattern.test(path))?.name;
}

/** Name-value pairs (headers, a query, a form) as a HAR lists them. */
export function nameValues(pairs: Iterable<[string, string]>): HarNameValue[] {
  return [...pairs].map(([name, value]) => ({ name, value }));
}

/** A HAR list of pairs as form text (`application/x-www-form-urlencoded`, as a query holds it). */
export function formText(pairs: readonly HarNameValue[]): string {
  return new URLSearchParams(pairs.map((pair) => [pair.name, pair.value])).toString();
}

/** The JSON a body text holds, or undefined when it is not JSON. */
export function parseJson(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** One thing wrong in a HAR document: where (entry index and field) and what. */
export interface HarProblem {
  /** The index in `log.entries`, or undefined for a problem of the document itself. */
  entry?: number | undefined;
  /**
   * The field's path in the entry (`response.headers[2].value`) or the document (`log`); empty
   * for the entry or document as a whole.
   */
  field: string;
  /** What is wrong there. */
  message: string;
}

/**
 * A HAR document the SDK cannot read: not an object (a string: pass `JSON.parse(…)`), not JSON,
 * cut short, or with entries whose fields are missing or of the wrong type. `problems` names the
 * entry and field of each.
 */
export class HarError extends EmployeeRecognitionError {
  /** Always `'HarError'`, so a log line or a test can tell it from the SDK's other errors. */
  override name = 'HarError';
  /** `string`, `not-json`, `truncated` (the text ends early) or `structure`. */
  readonly kind: 'string' | 'not-json' | 'truncated' | 'structure';
  /** Each problem found, with its entry and field; empty for a document that is not JSON. */
  readonly problems: readonly HarProblem[];

  constructor(kind: HarError['kind'], message: string, problems: readonly HarProblem[] = []) {
    super(message);
    this.kind = kind;
    this.problems = problems;
  }
}

/** A HAR file's text read by {@link parseHar}: the HAR and what the reader had to say of it. */
export interface HarText {
  /** The recording, every entry in the form {@link readHar} gives. */
  har: Har;
  /**
   * True for the `.partial` a recorder streams entries to (one JSON line each), as a process
   * killed before it finished leaves it: its entries had no last pass over the whole session.
   */
  partial: boolean;
  /** What a reader should be told: a partial read, a last line cut short and dropped. */
  notes: string[];
}

// Problems listed in a message; the error's `problems` holds them all.
const LISTED_PROBLEMS = 5;
const FORM_MIME = 'application/x-www-form-urlencoded';
// A body type whose base64 content is text: the reader decodes it for the readers after it.
const TEXTUAL_MIME = /json|text|xml|x-www-form-urlencoded|javascript/i;

const typeName = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'a list' : typeof value;

/**
 * The one reader of HAR 1.2 documents (`JSON.parse` of a file), for replay and the `traffic`
 * commands alike. Reads what other tools write too: base64 bodies (`content.encoding`), form
 * bodies as `postData.params` without `text`, no `content.text`, comments and `_` fields. Checks
 * the whole structure first and throws a {@link HarError} naming the entry and field of every
 * problem. Returns a copy in one form: a textual base64 body decoded into `text`, a form's
 * `params` also as `text`, absent lists as empty ones.
 */
export function readHar(value: unknown, name = 'The recording'): Har {
  if (typeof value === 'string') {
    throw new HarError(
      'string',
      "Expected a HAR object, got a string: pass JSON.parse(text), as in JSON.parse(readFileSync('calls.har', 'utf8')).",
    );
  }
  const problems: HarProblem[] = [];
  const log = (value as { log?: unknown } | null | undefined)?.log as
    Record<string, unknown> | undefined;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ field: '', message: `is ${typeName(value)}, not an object` });
  } else if (log === null || typeof log !== 'object' || Array.isArray(log)) {
    problems.push({
      field: 'log',
      message: log === undefined ? 'is missing' : `is ${typeName(log)}, not an object`,
    });
  } else if (!Array.isArray(log.entries)) {
    problems.push({
      field: 'log.entries',
      message: log.entries === undefined ? 'is missing' : `is ${typeName(log.entries)}, not a list`,
    });
  }
  if (problems.length) throw structureError(problems, name);
  const entries = (log!.entries as unknown[]).map((entry, index) =>
    readEntry(entry, index, problems),
  );
  if (problems.length) throw structureError(problems, name);
  return { log: { ...(log as Har['log']), entries: entries as HarEntry[] } };
}

function structureError(problems: HarProblem[], name: string): HarError {
  const listed = problems
    .slice(0, LISTED_PROBLEMS)
    .map(({ entry, field, message }) =>
      field === ''
        ? `${entry === undefined ? 'the document' : `entry ${entry}`} ${message}`
        : `${entry === undefined ? '' : `entry ${entry}, `}${field} ${message}`,
    );
  const more = problems.length - listed.length;
  return new HarError(
    'structure',
    `${name} is not a HAR 1.2 document: ${listed.join('; ')}${more > 0 ? `; and ${more} more problem${more === 1 ? '' : 's'}` : ''}.`,
    problems,
  );
}

// One entry checked and put in the reader's form; its problems added to `problems`.
function readEntry(value: unknown, index: number, problems: HarProblem[]): HarEntry | undefined {
  const problem = (field: string, message: string) => {
    problems.push({ entry: index, field, message });
    return undefined;
  };
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return problem('', `is ${typeName(value)}, not an object`);
  }
  const entry = value as Record<string, unknown>;
  const request = objectAt(entry, 'request', problem);
  const response = objectAt(entry, 'response', problem);
  if (!request || !response) return undefined;
  if (typeof request.method !== 'string' || request.method === '') {
    problem(
      'request.method',
      request.method === undefined
        ? 'is missing'
        : `is ${typeName(request.method)}, not a method name`,
    );
  }
  let url: URL | undefined;
  if (typeof request.url !== 'string') {
    problem(
      'request.url',
      request.url === undefined ? 'is missing' : `is ${typeName(request.url)}, not a URL`,
    );
  } else {
    try {
      url = new URL(request.url);
    } catch {
      problem('request.url', `${JSON.stringify(request.url.slice(0, 80))} is not an absolute URL`);
    }
  }
  const requestHeaders = nameValuesAt(request, 'request.headers', problem);
  const queryString =
    request.queryString === undefined && url
      ? nameValues(url.searchParams)
      : nameValuesAt(request, 'request.queryString', problem);
  const cookies = nameValuesAt(request, 'request.cookies', problem);
  let postData = request.postData as Record<string, unknown> | undefined;
  if (postData !== undefined) {
    postData = objectAt(request, 'postData', (field, message) =>
      problem(`request.${field}`, message),
    );
    if (postData) postData = readPostData(postData, problem);
  }
  if (typeof response.status !== 'number' || !Number.isInteger(response.status)) {
    problem(
      'response.status',
      response.status === undefined
        ? 'is missing'
        : `is ${typeName(response.status)}, not a whole number`,
    );
  }
  const responseHeaders = nameValuesAt(response, 'response.headers', problem);
  const responseCookies = nameValuesAt(response, 'response.cookies', problem);
  const content =
    response.content === undefined
      ? { size: 0, mimeType: '' }
      : objectAt(response, 'content', (field, message) => problem(`response.${field}`, message));
  const readContent = content && readResponseContent(content, problem);
  return {
    ...(entry as unknown as HarEntry),
    request: {
      ...(request as unknown as HarEntry['request']),
      headers: requestHeaders ?? [],
      queryString: queryString ?? [],
      cookies: cookies ?? [],
      ...(postData ? { postData: postData as unknown as HarPostData } : {}),
    },
    response: {
      ...(response as unknown as HarEntry['response']),
      statusText: typeof response.statusText === 'string' ? response.statusText : '',
      headers: responseHeaders ?? [],
      cookies: responseCookies ?? [],
      content: (readContent ?? { size: 0, mimeType: '' }) as HarEntry['response']['content'],
      redirectURL: typeof response.redirectURL === 'string' ? response.redirectURL : '',
    },
  };
}

function objectAt(
  parent: Record<string, unknown>,
  key: string,
  problem: (field: string, message: string) => undefined,
): Record<string, unknown> | undefined {
  const value = parent[key];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    return value as Record<string, unknown>;
  }
  return problem(key, value === undefined ? 'is missing' : `is ${typeName(value)}, not an object`);
}

// A list of name/value pairs; absent is empty (tolerant), anything else named.
function nameValuesAt(
  parent: Record<string, unknown>,
  path: string,
  problem: (field: string, message: string) => undefined,
): HarNameValue[] | undefined {
  const value = parent[path.slice(path.lastIndexOf('.') + 1)];
  if (value === undefined) return [];
  if (!Array.isArray(value)) return problem(path, `is ${typeName(value)}, not a list`);
  let ok = true;
  value.forEach((item: unknown, at) => {
    const pair = item as { name?: unknown; value?: unknown } | null;
    if (pair === null || typeof pair !== 'object') {
      ok = problem(`${path}[${at}]`, `is ${typeName(item)}, not { name, value }`) ?? false;
    } else if (typeof pair.name !== 'string') {
      ok = problem(`${path}[${at}].name`, `is ${typeName(pair.name)}, not a string`) ?? false;
    } else if (typeof pair.value !== 'string') {
      ok = problem(`${path}[${at}].value`, `is ${typeName(pair.value)}, not a string`) ?? false;
    }
  });
  return ok ? (value as HarNameValue[]) : undefined;
}

// A request body: `params` without `text` (a form, as Polly.js records one) given its text too.
function readPostData(
  postData: Record<string, unknown>,
  problem: (field: string, message: string) => undefined,
): Record<string, unknown> | undefined {
  const params =
    postData.params === undefined
      ? undefined
      : nameValuesAt(postData, 'request.postData.params', problem);
  if (postData.text !== undefined && typeof postData.text !== 'string') {
    return problem('request.postData.text', `is ${typeName(postData.text)}, not a string`);
  }
  const mimeType = typeof postData.mimeType === 'string' ? postData.mimeType : '';
  if (postData.text === undefined && params?.length) {
    return {
      ...postData,
      mimeType: mimeType || FORM_MIME,
      text: new URLSearchParams(params.map((each) => [each.name, each.value])).toString(),
    };
  }
  return { ...postData, mimeType };
}

// An answer's body: a textual one in base64 decoded into `text` when it is UTF-8.
function readResponseContent(
  content: Record<string, unknown>,
  problem: (field: string, message: string) => undefined,
): Record<string, unknown> | undefined {
  const mimeType = typeof content.mimeType === 'string' ? content.mimeType : '';
  if (content.text !== undefined && typeof content.text !== 'string') {
    return problem('response.content.text', `is ${typeName(content.text)}, not a string`);
  }
  const size = typeof content.size === 'number' ? content.size : 0;
  if (content.encoding === undefined || content.text === undefined) {
    return { ...content, size, mimeType };
  }
  if (content.encoding !== 'base64') {
    return problem(
      'response.content.encoding',
      `is ${JSON.stringify(content.encoding)}: only base64 is known`,
    );
  }
  const bytes = decodeBase64Bytes(content.text as string);
  if (bytes === undefined)
    return problem('response.content.text', 'is not base64, as its encoding says');
  if (!TEXTUAL_MIME.test(mimeType)) return { ...content, size, mimeType };
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    const { encoding: _base64, ...rest } = content;
    return { ...rest, size, mimeType, text };
  } catch {
    return { ...content, size, mimeType };
  }
}

/** Bytes of base64 text (padding optional), or undefined when it is not base64. */
export function decodeBase64Bytes(text: string): Uint8Array<ArrayBuffer> | undefined {
  try {
    return Uint8Array.from(atob(text.replace(/\s+/g, '')), (char) => char.charCodeAt(0));
  } catch {
    return undefined;
  }
}

/** Bytes as base64, as a HAR's `content.encoding: "base64"` holds them. */
export const toBase64 = (bytes: Uint8Array) => btoa(binaryString(bytes));

/** A character a byte, in chunks: spreading a whole body at once would overflow the stack. */
export function binaryString(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return binary;
}

/**
 * A HAR file's text read: a HAR document, or the `.partial` a recorder streams to (one entry per
 * line, as a killed process leaves it; a last line cut short is dropped, saying so). Text that
 * is not JSON, or ends early, throws a {@link HarError} of its own kind; `name` (the file's)
 * starts its message.
 */
export function parseHar(text: string, name = 'The text'): HarText {
  const trimmed = text.replace(/^\uFEFF/, '').trim();
  let document: unknown;
  try {
    document = JSON.parse(trimmed);
  } catch (error) {
    const lines = partialLines(trimmed);
    if (lines) return readPartial(lines, name);
    throw notJson(trimmed, name, error);
  }
  // A `.partial` of a single entry is one JSON object too.
  if (isEntryLike(document)) return readPartial(partialLines(trimmed)!, name);
  return { har: readHar(document, name), partial: false, notes: [] };
}

// The lines of a recorder's `.partial`: each a JSON object with a request; undefined otherwise.
function partialLines(text: string): string[] | undefined {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  if (lines.length === 0 || !lines[0]!.startsWith('{"startedDateTime"')) return undefined;
  return lines;
}

function isEntryLike(value: unknown): boolean {
  return value !== null && typeof value === 'object' && 'request' in value && 'response' in value;
}

function readPartial(lines: string[], name: string): HarText {
  const notes = [
    `${name} is a recording's .partial, left by a process that did not finish: its entries are read as they were streamed, without the last pass over the whole session (a name first seen in a later entry may be in clear in an earlier one).`,
  ];
  const entries: unknown[] = [];
  lines.forEach((line, index) => {
    try {
      entries.push(JSON.parse(line));
    } catch (error) {
      if (index === lines.length - 1) {
        notes.push(
          `Its last line is cut short (the process stopped while writing it) and is left out.`,
        );
      } else {
        throw new HarError(
          'not-json',
          `${name} is a recording's .partial whose line ${index + 1} is not JSON: ${error instanceof Error ? error.message : String(error)}.`,
        );
      }
    }
  });
  const har = readHar(
    { log: { version: '1.2', creator: { name: 'partial recording', version: '' }, entries } },
    name,
  );
  har.log.entries.sort(bySendOrder);
  return { har, partial: true, notes };
}

/** Entries by the order their requests were sent (`_sequence`, as the recorder writes it). */
export function bySendOrder(a: HarEntry, b: HarEntry): number {
  return (a._sequence ?? 0) - (b._sequence ?? 0);
}

function notJson(text: string, name: string, error: unknown): HarError {
  const reason = error instanceof Error ? error.message : String(error);
  const at = Number(/at position (\d+)/.exec(reason)?.[1] ?? Number.NaN);
  if (text === '') {
    return new HarError('not-json', `${name} is empty, not a HAR file.`);
  }
  if (/end of JSON input|Unterminated string/i.test(reason) || at >= text.length) {
    return new HarError(
      'truncated',
      `${name} ends early: the HAR is cut short after ${text.length} characters (was the process writing it stopped?). A recorder's entries are in its .partial until the recording is finished.`,
    );
  }
  return new HarError(
    'not-json',
    `${name} is not JSON, so not a HAR file: ${reason}${text.startsWith('{') ? '' : ` (it starts ${JSON.stringify(text.slice(0, 20))})`}.`,
  );
}
