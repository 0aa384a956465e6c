import { ERROR_CODES, HEADER_RETRY_AFTER } from '../contract.js';
import { compilePath, type PathMatcher } from './routes.js';
import { type ErrorStatus, errorBody } from './validation.js';

/**
 * Names the requests a fault applies to: `'POST /v1/recognitions'`, `'GET /v1/recognitions/:id'`,
 * `'* /v1/webhooks/*'`, or a path alone for any method. Paths match as MSW matches its handlers:
 * `:name` is one path segment, `*` any rest; the query string is ignored. docs/testing.md lists
 * the API's routes.
 */
export type FaultRoute = string;

/** How many of the next matching requests a fault applies to. */
export interface FaultTimes {
  /** Default 1. */
  times?: number | undefined;
}

/** An answer that stands for a failure in front of the API, such as a proxy's. */
export interface FailOptions extends FaultTimes {
  /** Default 503. */
  status?: number | undefined;
  /** The Retry-After header: delay-seconds, or an HTTP-date string. */
  retryAfter?: number | string | undefined;
  /**
   * The body: a string is sent as is (HTML when it starts with `<`, else plain text), any
   * other value as JSON. Default: the contract's error body for `status`.
   */
  body?: unknown;
  /** More headers, which win over the ones the fault sets. */
  headers?: Record<string, string> | undefined;
}

/** Fault injection: each fault applies to the next matching requests, in the order armed. */
export interface MockFaults {
  /** Answers with an error instead of the API. */
  failNext(route: FaultRoute, options?: FailOptions): void;
  /** Holds the request for `ms` before the API answers it; the request's abort signal cancels the wait. */
  delayNext(route: FaultRoute, ms: number, options?: FaultTimes): void;
  /** Drops the connection before the API sees the request: nothing happens, fetch rejects. */
  dropNext(route: FaultRoute, options?: FaultTimes): void;
  /** The API does the work, then the connection drops before the answer arrives: fetch rejects. */
  dropResponseNext(route: FaultRoute, options?: FaultTimes): void;
  /** Disarms every fault. */
  clear(): void;
}

/** An armed fault as the request pipeline applies it. */
export type Fault =
  | { kind: 'fail'; status: number; body: string | null; headers: Record<string, string> }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop' }
  | { kind: 'drop-response' };

interface Armed {
  method: string | undefined;
  matches: PathMatcher;
  fault: Fault;
  remaining: number;
}

/** The faults of one mock, with `take` for the pipeline. */
export function createFaults(): MockFaults & {
  take(method: string, path: string): Fault | undefined;
} {
  let armed: Armed[] = [];
  const arm = (route: FaultRoute, fault: Fault, { times = 1 }: FaultTimes = {}) => {
    if (!Number.isInteger(times) || times < 1)
      throw new RangeError('times must be a whole number of at least 1');
    armed.push({ ...parseRoute(route), fault, remaining: times });
  };
  return {
    failNext: (route, options = {}) => arm(route, failure(options), options),
    delayNext: (route, ms, options) => arm(route, { kind: 'delay', ms }, options),
    dropNext: (route, options) => arm(route, { kind: 'drop' }, options),
    dropResponseNext: (route, options) => arm(route, { kind: 'drop-response' }, options),
    clear() {
      armed = [];
    },
    take(method, path) {
      const match = armed.find(
        (entry) => (entry.method === undefined || entry.method === method) && entry.matches(path),
      );
      if (!match) return undefined;
      if (--match.remaining === 0) armed = armed.filter((entry) => entry !== match);
      return match.fault;
    },
  };
}

/** The response of a `fail` fault. */
export function faultResponse(
  fault: Extract<Fault, { kind: 'fail' }>,
  headers: Record<string, string>,
): Response {
  return new Response(fault.body, {
    status: fault.status,
    headers: { ...headers, ...fault.headers },
  });
}

function failure({ status = 503, retryAfter, body, headers }: FailOptions): Fault {
  const text = typeof body === 'string';
  const payload =
    body === undefined
      ? errorBody(status in ERROR_CODES ? (status as ErrorStatus) : 500, 'Injected fault.')
      : body;
  return {
    kind: 'fail',
    status,
    body: text ? (body as string) : JSON.stringify(payload),
    headers: {
      'content-type': text
        ? `${(body as string).trimStart().startsWith('<') ? 'text/html' : 'text/plain'}; charset=utf-8`
        : 'application/json',
      ...(retryAfter === undefined ? {} : { [HEADER_RETRY_AFTER]: String(retryAfter) }),
      ...headers,
    },
  };
}

function parseRoute(route: FaultRoute): { method: string | undefined; matches: PathMatcher } {
  const parts = route.trim().split(/\s+/);
  const [method, path] = parts.length === 1 ? [undefined, parts[0]] : parts;
  if (parts.length > 2 || !path?.startsWith('/')) {
    throw new TypeError(`A fault route is "METHOD /path" or "/path", not ${JSON.stringify(route)}`);
  }
  return { method: method === '*' ? undefined : method?.toUpperCase(), matches: compilePath(path) };
}
