/**
 * The receiver's two adapters, each a whole request: check the path and method, read the raw
 * body under a cap, hand it to `receiver.receive`, answer with the status it gives. A Fetch
 * handler for the runtimes built on `Request`/`Response`, and a Node handler for node:http,
 * Express and Connect.
 */
import { ConfigurationError } from '../core/config.js';
import type { WebhookReceipt, WebhookReceiver } from './receiver.js';
import type { WebhookRequestHeaders } from './verify.js';

/** The default body cap: deliveries are small JSON events; 1 MiB leaves ample room. */
const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** Options of both adapters. */
export interface MiddlewareOptions {
  /**
   * Only requests for this path are deliveries; others get 404 (or, in the Node handler, go on
   * to `next`). Default: every request, as when the handler is mounted on its own route.
   */
  path?: string | undefined;
  /** The largest body accepted, in bytes; a larger one is answered 413. Default 1 MiB. */
  maxBodyBytes?: number | undefined;
}

/** A Cloudflare Worker's `ctx`, or anything with its `waitUntil`. */
export interface ExecutionContextLike {
  /** Keeps the platform running until `promise` settles, after the answer is sent. */
  waitUntil(promise: Promise<unknown>): void;
}

/** Options of {@link createWebMiddleware}. */
export interface WebMiddlewareOptions extends MiddlewareOptions {
  /**
   * Answer 202 as soon as a delivery is verified and run the handlers after the answer:
   * `true` for the `waitUntil` of the handler's third argument (a Worker's `ctx`), or a function
   * such as Vercel's `waitUntil`. Without a `ctx`, `true` handles before answering, as by default.
   */
  waitUntil?: true | ((promise: Promise<unknown>) => void) | undefined;
}

/** Options of {@link createNodeMiddleware}. */
export interface NodeMiddlewareOptions extends MiddlewareOptions {
  /**
   * Answer 202 as soon as a delivery is verified and run the handlers after the answer, kept
   * alive by this function (such as Vercel's `waitUntil`).
   */
  waitUntil?: ((promise: Promise<unknown>) => void) | undefined;
}

/**
 * A Fetch handler: `(request, env?, ctx?) => Promise<Response>`, the shape of Next.js route
 * handlers, Bun.serve, Deno.serve, Remix actions and Cloudflare Workers (whose `env` and `ctx`
 * it takes as the second and third arguments).
 */
export type WebhookFetchHandler<Env = unknown> = (
  request: Request,
  env?: Env,
  ctx?: ExecutionContextLike,
) => Promise<Response>;

/** The parts of a Node `IncomingMessage` the Node handler uses (Express's request is one). */
export interface NodeRequestLike extends AsyncIterable<unknown> {
  /** The request's method: only POST is a delivery. */
  method?: string | undefined;
  /** The request's path and query, for the receiver's handlers and the `path` option. */
  url?: string | undefined;
  /** The request's headers, where the `webhook-*` headers are. */
  headers: WebhookRequestHeaders;
  /** A body a parser already read: used as it is when it is raw (Buffer or string). */
  body?: unknown;
  /** A raw body some platforms buffer (Firebase, Google Cloud Functions). */
  rawBody?: unknown;
  /** True once the body stream was read to its end. */
  readableEnded?: boolean | undefined;
}

/** The parts of a Node `ServerResponse` the Node handler uses. */
export interface NodeResponseLike {
  /** The status of the answer, set before `end()`. */
  statusCode: number;
  /** Sets one header of the answer. */
  setHeader(name: string, value: string): unknown;
  /** Sends the answer, with no body. */
  end(): unknown;
}

/**
 * A Node handler: `(req, res, next?)` for node:http's `createServer`, Express 4 and 5, and
 * Connect. Resolves to whether it answered the request (false when it went on to `next`).
 */
export type WebhookNodeHandler = (
  request: NodeRequestLike,
  response: NodeResponseLike,
  next?: (error?: unknown) => void,
) => Promise<boolean>;

const TOO_LARGE = Symbol('too large');
const METHOD = 'POST';

/**
 * Serves `receiver` as a Fetch handler. In a Worker, the secret defaults to the
 * `RECOGNITION_WEBHOOK_SECRET` binding of `env`.
 *
 * @example
 * ```ts
 * export const POST = createWebMiddleware(receiver); // Next.js: app/api/webhooks/route.ts
 * export default { fetch: createWebMiddleware(receiver, { waitUntil: true }) }; // a Worker
 * ```
 */
export function createWebMiddleware<Env = unknown>(
  receiver: WebhookReceiver<Env>,
  options: WebMiddlewareOptions = {},
): WebhookFetchHandler<Env> {
  const { path, maxBodyBytes, waitUntil } = middlewareSettings(options);
  return async (request, env, ctx) => {
    if (path !== undefined && new URL(request.url).pathname !== path) {
      return new Response(null, { status: 404 });
    }
    if (request.method !== METHOD) return new Response(null, answerHeaders(405));
    // A body a framework already read (say, with request.json()) is no longer the raw bytes.
    const body = request.bodyUsed ? undefined : await readWebBody(request, maxBodyBytes);
    if (body === TOO_LARGE) return new Response(null, answerHeaders(413));
    // A used body (undefined) goes on too: the receiver answers it 500 and says what to change.
    const receipt = await receiver.receive(body as Uint8Array, request.headers, {
      url: request.url,
      env,
      waitUntil: waitUntil === true ? ctx && ((promise) => ctx.waitUntil(promise)) : waitUntil,
    });
    return new Response(null, answerHeaders(receipt.status));
  };
}

/**
 * Serves `receiver` as a Node handler. It reads the raw body itself, up to the cap; a body
 * already buffered raw (`express.raw()`, a `req.rawBody` Buffer) is used as it is. A body a JSON
 * parser consumed cannot be verified: that is answered 500 and logged once, saying what to change.
 *
 * @example
 * ```ts
 * createServer(createNodeMiddleware(receiver)).listen(3000); // node:http
 * app.post('/webhooks', createNodeMiddleware(receiver)); // Express, before express.json()
 * ```
 */
export function createNodeMiddleware<Env = unknown>(
  receiver: WebhookReceiver<Env>,
  options: NodeMiddlewareOptions = {},
): WebhookNodeHandler {
  const { path, maxBodyBytes, waitUntil } = middlewareSettings(options);
  return async (request, response, next) => {
    const url = (request as { originalUrl?: string }).originalUrl ?? request.url ?? '/';
    if (path !== undefined && url.replace(/[?#].*/s, '') !== path) {
      if (next) {
        next();
        return false;
      }
      answerNode(response, 404);
      return true;
    }
    if (request.method !== METHOD) {
      answerNode(response, 405);
      return true;
    }
    let body: ReturnType<typeof bufferedBody> | typeof TOO_LARGE = bufferedBody(request);
    try {
      if (body === undefined) body = await readNodeBody(request, maxBodyBytes);
    } catch {
      // The client went away mid-body, or the stream broke: there is no delivery to judge.
      answerNode(response, 400);
      return true;
    }
    if (body === TOO_LARGE) {
      answerNode(response, 413);
      return true;
    }
    // A consumed body (null) goes on too: the receiver answers it 500 and says what to change.
    const receipt = await receiver.receive(body as Uint8Array, request.headers, { url, waitUntil });
    answerNode(response, receipt.status);
    return true;
  };
}

function middlewareSettings<Options extends MiddlewareOptions>(options: Options) {
  const { path, maxBodyBytes = DEFAULT_MAX_BODY_BYTES } = options;
  if (!(Number.isSafeInteger(maxBodyBytes) && maxBodyBytes > 0)) {
    throw new ConfigurationError(
      'maxBodyBytes',
      '`maxBodyBytes` must be a whole number of bytes above 0.',
    );
  }
  if (path !== undefined && !(typeof path === 'string' && path.startsWith('/'))) {
    throw new ConfigurationError('path', '`path` must be a string that starts with /.');
  }
  return { ...options, path, maxBodyBytes };
}

type AnswerStatus = WebhookReceipt['status'] | 400 | 404 | 405 | 413;

/** The status and headers of an answer: none carries a body. */
function answerHeaders(status: AnswerStatus): { status: number; headers: Record<string, string> } {
  return { status, headers: status === 405 ? { allow: METHOD } : {} };
}

function answerNode(response: NodeResponseLike, status: AnswerStatus): void {
  const { headers } = answerHeaders(status);
  response.statusCode = status;
  for (const [name, value] of Object.entries(headers)) response.setHeader(name, value);
  // The rest of an oversized body is not read: closing the connection stops the client sending
  // it. Fetch runtimes manage their connections themselves.
  if (status === 413) response.setHeader('connection', 'close');
  response.end();
}

/**
 * The raw body a parser already buffered, `undefined` when there is none and the stream is still
 * to be read, or `null` for a body consumed into something else (the receiver answers 500 for it).
 */
function bufferedBody(request: NodeRequestLike): Uint8Array | string | null | undefined {
  for (const candidate of [request.rawBody, request.body]) {
    if (typeof candidate === 'string' || candidate instanceof Uint8Array) return candidate;
  }
  // body-parser marks a request whose body it read with `_body`.
  const consumed = request.readableEnded || (request as { _body?: unknown })._body === true;
  return consumed ? null : undefined;
}

async function readNodeBody(
  request: NodeRequestLike,
  maxBytes: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  if (declaredLength(request.headers) > maxBytes) return TOO_LARGE;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of request) {
    const bytes =
      typeof chunk === 'string' ? new TextEncoder().encode(chunk) : (chunk as Uint8Array);
    size += bytes.length;
    if (size > maxBytes) return TOO_LARGE;
    chunks.push(bytes);
  }
  return concat(chunks);
}

async function readWebBody(
  request: Request,
  maxBytes: number,
): Promise<Uint8Array | typeof TOO_LARGE> {
  if (declaredLength(request.headers) > maxBytes) return TOO_LARGE;
  const reader = request.body?.getReader();
  if (!reader) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
    size += chunk.value.length;
    if (size > maxBytes) {
      await reader.cancel();
      return TOO_LARGE;
    }
    chunks.push(chunk.value);
  }
  return concat(chunks);
}

/** The Content-Length the client declared, or 0 when it declared none. */
function declaredLength(headers: WebhookRequestHeaders): number {
  const value =
    typeof (headers as Headers).get === 'function'
      ? (headers as Headers).get('content-length')
      : (headers as Record<string, unknown>)['content-length'];
  const length = Number(value);
  return Number.isFinite(length) ? length : 0;
}

/** The chunks as one array, without a copy when there is one chunk. */
async function concat(chunks: Uint8Array[]): Promise<Uint8Array> {
  if (chunks.length === 1) return chunks[0]!;
  return new Uint8Array(await new Blob(chunks as BlobPart[]).arrayBuffer());
}
