import type { MockApi } from '@employee-recognition/sdk/testing';

/** A fixed clock tests can move: `clock.now` is the time in ms. */
export function createClock(start = Date.parse('2026-11-21T12:00:00Z')) {
  const clock = {
    now: start,
    read: () => clock.now,
    advance(ms: number) {
      clock.now += ms;
    },
  };
  return clock;
}

/** A response read once: status, headers and the JSON body (or text, when it is not JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON.
  body: any;
}

/** Calls `api` with its test key (or `key`), a JSON body when given, and reads the reply. */
export async function call(
  api: MockApi,
  method: string,
  path: string,
  options: { body?: unknown; key?: string | null; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const key = options.key === undefined ? api.testKey : options.key;
  const headers: Record<string, string> = { ...options.headers };
  if (key !== null) headers.authorization = `Bearer ${key}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const response = await api.fetch(path, {
    method,
    headers,
    body:
      typeof options.body === 'string' || options.body === undefined
        ? options.body
        : JSON.stringify(options.body),
  });
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body };
}
