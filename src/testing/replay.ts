// A recording replayed (docs/testing.md, "Replaying a recording"): each request answered by the
// recorded entry with its method, path, query and body, repeats in the recorded order. Shared by
// `fromRecording` (MSW, /testing/msw) and `startMockServer({ replay })`, so both answer alike.
// @mswjs/source's `fromTraffic` is not the base: it matches no body, lets an unmatched request
// through to the network, waits each entry's recorded time for real, and loads msw, which
// startMockServer must not.
import { HEADER_REQUEST_ID, HEADER_RATE_LIMIT_RESET, HEADER_RETRY_AFTER } from '../contract.js';
import { escapeControls } from '../core/errors.js';
import {
  decodeBase64Bytes,
  type Har,
  type HarEntry,
  operationOf,
  parseJson,
  readHar,
} from './har.js';
import { REDACTED } from './redact.js';

/** How a recording is replayed. */
export interface ReplayOptions {
  /**
   * What answers a request the recording does not hold: `'fail'` (the default), a 501 whose
   * error names the nearest recorded request and how it differs; `'mock'`, the stateful mock.
   */
  onUnrecorded?: 'fail' | 'mock' | undefined;
}

/** A recording as a Request → Response function. */
export interface Replayer {
  handle(request: Request): Promise<Response>;
  /** The 501 of a request to an origin the recording does not hold, naming those it holds. */
  elsewhere(request: Request): Response;
  /** The origins the recording holds. */
  readonly origins: readonly string[];
}

// What a request is matched on.
interface Shape {
  method: string;
  path: string;
  query: [string, string][];
  body: Map<string, string> | string | typeof ANY_BODY | undefined;
}

const ANY_BODY = Symbol('any body');

interface Recorded extends Shape {
  entry: HarEntry;
  index: number;
  /** Fields whose recorded value was redacted: any value matches there. */
  redacted: Set<string>;
  used: boolean;
  /** The answer headers already said to be left out. */
  warned: Set<string>;
}

const METHODS_WITH_BODY = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
// Headers of the recorded connection, not of the answer: the replay's own transport sets them.
const NOT_REPLAYED = new Set([
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
]);
const STATUS_NOT_RECORDED = 501;
// An epoch-seconds value, as X-RateLimit-Reset may be, rather than seconds from now.
const EPOCH_SECONDS = 1e9;

/** How {@link createReplayer} serves. */
export interface ReplayerOptions {
  /** Answers unrecorded requests (the mock); without it they get a 501. */
  fallback?: ((request: Request) => Promise<Response>) | undefined;
  /** The clock recorded absolute times are moved to. Default `Date.now`. */
  now?: (() => number) | undefined;
  /**
   * Where the replay is served, when not at the recorded origins (a local server): every
   * recorded origin in the answers' headers and bodies (the issuer in OAuth metadata, links)
   * becomes this one, so the client stays on it.
   */
  origin?: string | undefined;
  /**
   * Origins served as recorded ones (`fromRecording`'s `origins`): the recorded origin in an
   * answer to a request there becomes the request's.
   */
  origins?: Readonly<Record<string, string>> | undefined;
}

// Node's HTTP layer refuses these in a header value (its checkInvalidHeaderChar).
const UNSENDABLE_VALUE = /[^\t\x20-\x7e\x80-\xff]/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** A replay of `har`. */
export function createReplayer(input: Har, options: ReplayerOptions = {}): Replayer {
  const { fallback, now = Date.now } = options;
  const har = readHar(input);
  const recorded: Recorded[] = har.log.entries.map((entry, index) => {
    const url = new URL(entry.request.url);
    const postData = entry.request.postData;
    return {
      entry,
      index,
      method: entry.request.method.toUpperCase(),
      path: url.pathname,
      query: sortedPairs(url.searchParams),
      // A body recorded without its content (Polly.js writes `params: []` and no text for one
      // that was not a string) matches any body.
      body:
        postData !== undefined && postData.text === undefined
          ? ANY_BODY
          : bodyShape(postData?.text, postData?.mimeType ?? ''),
      redacted: new Set(postData?._redacted ?? []),
      used: false,
      warned: new Set(),
    };
  });
  let misses = 0;
  const origins = [...new Set(recorded.map((each) => new URL(each.entry.request.url).origin))];
  // The recorded origins in an answer, made the one the client talks to.
  const rebaseFor = (url: URL) => {
    const served = options.origin ?? url.origin;
    const from = options.origin === undefined ? [options.origins?.[url.origin] ?? served] : origins;
    return (text: string) =>
      from.reduce(
        (out, origin) => (origin === served ? out : out.split(origin).join(served)),
        text,
      );
  };

  return {
    origins,
    elsewhere(request) {
      const url = new URL(request.url);
      // The remedy first: a client's error message keeps the first 200 characters.
      return notRecordedResponse(
        `No recording at ${url.origin}: it was made against ${origins.join(', ') || 'no origin'}. Set RECOGNITION_BASE_URL or baseUrl to that origin, or map this one with \`origins\`; the request was ${request.method.toUpperCase()} ${url.pathname}${url.search}.`,
        ++misses,
      );
    },
    async handle(request) {
      const url = new URL(request.url);
      const method = request.method.toUpperCase();
      const text = METHODS_WITH_BODY.has(method) ? await request.clone().text() : '';
      const shape: Shape = {
        method,
        path: url.pathname,
        query: sortedPairs(url.searchParams),
        body: bodyShape(text, request.headers.get('content-type') ?? ''),
      };
      const matches = recorded.filter((each) => differences(each, shape).length === 0);
      const match = matches.find((each) => !each.used) ?? matches.at(-1);
      if (match) {
        match.used = true;
        return toResponse(match, now(), rebaseFor(url));
      }
      if (fallback) return fallback(request);
      return notRecorded(recorded, shape, url, ++misses);
    },
  };
}

// Names and values of a query, sorted: the order of parameters does not matter.
function sortedPairs(params: URLSearchParams): [string, string][] {
  return [...params].sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1));
}

// A body as leaf paths and values (JSON, forms), its text otherwise, undefined when empty.
function bodyShape(text: string | undefined, mimeType: string): Shape['body'] {
  if (text === undefined || text === '') return undefined;
  if (mimeType.toLowerCase().startsWith('application/x-www-form-urlencoded')) {
    return new Map(sortedPairs(new URLSearchParams(text)));
  }
  const json = parseJson(text);
  if (json === undefined) return text;
  const leaves = new Map<string, string>();
  const walk = (value: unknown, path: string) => {
    if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
      for (const [key, item] of Object.entries(value)) {
        walk(item, Array.isArray(value) ? `${path}[${key}]` : path ? `${path}.${key}` : key);
      }
    } else {
      leaves.set(path, JSON.stringify(value));
    }
  };
  walk(json, '');
  return leaves;
}

const clip = (text: string) => JSON.stringify(text.length > 40 ? `${text.slice(0, 39)}…` : text);

// How a request differs from a recorded one, one line each; empty when it matches.
function differences(recorded: Recorded, shape: Shape): string[] {
  const out: string[] = [];
  if (recorded.method !== shape.method) out.push(`the method is ${recorded.method}`);
  if (recorded.path !== shape.path) out.push(`the path is ${recorded.path}`);
  out.push(...compareFields('query', toMap(recorded.query), toMap(shape.query), recorded.redacted));
  const [a, b] = [recorded.body, shape.body];
  if (a === ANY_BODY) return out;
  if (a instanceof Map && b instanceof Map)
    out.push(...compareFields('body', a, b, recorded.redacted));
  else if (a !== b && !(a === undefined && b === undefined)) {
    out.push(
      a === undefined ? 'it had no body' : b === undefined ? 'it had a body' : 'its body differs',
    );
  }
  return out;
}

function toMap(pairs: [string, string][]): Map<string, string> {
  const map = new Map<string, string>();
  for (const [name, value] of pairs)
    map.set(name, map.has(name) ? `${map.get(name)},${value}` : value);
  return map;
}

function compareFields(
  what: 'query' | 'body',
  recorded: Map<string, string>,
  got: Map<string, string>,
  redacted: Set<string>,
): string[] {
  const out: string[] = [];
  for (const name of new Set([...recorded.keys(), ...got.keys()])) {
    const [was, is] = [recorded.get(name), got.get(name)];
    if (was === is) continue;
    // A redacted value stood for any: the recording cannot hold the real one.
    if (
      was !== undefined &&
      is !== undefined &&
      (redacted.has(name) || unquote(was) === REDACTED)
    ) {
      continue;
    }
    out.push(
      was === undefined
        ? `${what} ${name} was not sent`
        : is === undefined
          ? `${what} ${name} was ${clip(unquote(was))}, not absent`
          : `${what} ${name} was ${clip(unquote(was))}, not ${clip(unquote(is))}`,
    );
  }
  return out;
}

function unquote(value: string): string {
  const json = parseJson(value);
  return typeof json === 'string' ? json : value;
}

// The 501 of a request no entry matches: the nearest entry (same operation first, then fewest
// differences) and how it differs, in the API's error shape.
function notRecorded(recorded: Recorded[], shape: Shape, url: URL, count: number): Response {
  const operation = operationOf(shape.method, url.href);
  const scored = recorded.map((each) => {
    const found = differences(each, shape);
    const sameOperation =
      each.method === shape.method &&
      operation !== undefined &&
      operationOf(each.method, each.entry.request.url) === operation;
    const weight =
      (each.method === shape.method ? 0 : 1000) +
      (each.path === shape.path ? 0 : sameOperation ? 10 : 100) +
      found.length;
    return { each, found, weight };
  });
  const nearest = scored.sort((a, b) => a.weight - b.weight)[0];
  const target = `${shape.method} ${url.pathname}${url.search}`;
  const message = nearest
    ? `No recorded request matches ${target}. The nearest, entry ${nearest.each.index} (${nearest.each.method} ${nearest.each.path}${queryText(nearest.each.query)}), differs: ${nearest.found.join('; ')}.`
    : `No recorded request matches ${target}: the recording is empty.`;
  return notRecordedResponse(message, count);
}

function notRecordedResponse(message: string, count: number): Response {
  return Response.json(
    { error: { code: 'not_recorded', message } },
    {
      status: STATUS_NOT_RECORDED,
      headers: { [HEADER_REQUEST_ID]: `replay_${String(count).padStart(6, '0')}` },
    },
  );
}

function queryText(query: [string, string][]): string {
  return query.length ? `?${new URLSearchParams(query).toString()}` : '';
}

// The recorded answer, its absolute times moved by the time since it was recorded: a
// rate-limit window then resets as far ahead of now as it did of the recorded request.
function toResponse(
  { entry, index, warned }: Recorded,
  now: number,
  rebase: (text: string) => string,
): Response {
  const { response } = entry;
  if (response.status === 0) return Response.error();
  const shift = now - Date.parse(entry.startedDateTime);
  const headers = new Headers();
  for (const { name, value } of response.headers) {
    if (NOT_REPLAYED.has(name.toLowerCase())) continue;
    // What HTTP cannot carry is left out, said once per entry: a replay never fails on it.
    if (!HEADER_NAME.test(name) || UNSENDABLE_VALUE.test(value)) {
      if (!warned.has(name)) {
        warned.add(name);
        console.warn(
          `[employee-recognition] replay: entry ${index}'s answer header ${escapeControls(JSON.stringify(name))} holds ${escapeControls(JSON.stringify(value.slice(0, 40)))}, which HTTP cannot carry: left out.`,
        );
      }
      continue;
    }
    headers.append(
      name,
      rebase(shifted(name.toLowerCase(), value, Number.isFinite(shift) ? shift : 0)),
    );
  }
  const { text, encoding } = response.content;
  const body =
    text === undefined || [101, 204, 205, 304].includes(response.status)
      ? null
      : encoding === 'base64'
        ? decodeBase64Bytes(text)!
        : rebase(text);
  return new Response(body, { status: response.status, statusText: response.statusText, headers });
}

function shifted(name: string, value: string, shift: number): string {
  if (name === 'date' || (name === HEADER_RETRY_AFTER && !/^\d+$/.test(value.trim()))) {
    const time = Date.parse(value);
    return Number.isNaN(time) ? value : new Date(time + shift).toUTCString();
  }
  if (name === HEADER_RATE_LIMIT_RESET && /^\d+$/.test(value.trim())) {
    const seconds = Number(value);
    return seconds >= EPOCH_SECONDS ? String(Math.round(seconds + shift / 1000)) : value;
  }
  return value;
}
