/**
 * The whole verification of a delivery, in the order it runs: secrets → body → headers →
 * timestamp → signature → event. Each step throws a WebhookVerificationError naming the check
 * that failed; the HMAC itself is in crypto.ts.
 */
import { ConfigurationError } from '../core/config.js';
import { readEnv } from '../internal/env.js';
import {
  ENV_WEBHOOK_SECRET,
  WEBHOOK_HEADER_ID,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_SIGNATURE_VERSION,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../contract.js';
import {
  decodeBase64,
  type HmacBackend,
  nodeCrypto,
  parseSecret,
  remember,
  webCrypto,
} from './crypto.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';

/** A delivery's raw body, exactly as received. */
export type WebhookPayload = string | Uint8Array | ArrayBuffer;

/**
 * Request headers: a Fetch `Headers`, or a plain object as Node's `req.headers` and Express give
 * them (names in any case, values possibly arrays). The last member admits interfaces without an
 * index signature, such as the headers `signWebhook` returns.
 */
export type WebhookRequestHeaders =
  | Headers
  | { readonly [name: string]: string | readonly string[] | undefined }
  | {
      // The Standard Webhooks names, as WEBHOOK_HEADER_* in contract.ts; written out so the
      // public type shows them rather than internal constants.
      readonly [name in 'webhook-id' | 'webhook-timestamp' | 'webhook-signature']?:
        string | readonly string[];
    };

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Seconds the `webhook-timestamp` may differ from now, either way; 0 or more. Default 300. */
  tolerance?: number | undefined;
  /** The current time as a Date, epoch milliseconds, or a function returning either; for tests. */
  now?: Date | number | (() => Date | number) | undefined;
}

let backend: HmacBackend | undefined;

/**
 * Checks that a webhook delivery comes from the service and is recent, then parses its event.
 *
 * Pass the body exactly as received: parsing JSON and serialising it again changes the bytes and
 * fails the signature.
 *
 * @param payload - The raw request body: a string, Uint8Array (a Node Buffer) or ArrayBuffer.
 * @param headers - The request headers: a Fetch `Headers` or a Node/Express header object.
 * @param secret - The endpoint's `whsec_…` secret, or several while rotating: any may match.
 *   Default: the `RECOGNITION_WEBHOOK_SECRET` environment variable, where `process.env` exists.
 * @param options - `tolerance` in seconds (default 300) and `now` (for tests).
 * @returns The verified event, typed by its `type`.
 * @throws {@link WebhookVerificationError} (as a rejection) when the delivery must not be trusted,
 *   or when a secret is malformed or there is none; its `reason` says which check failed.
 * @throws ConfigurationError (as a rejection) when `options.tolerance` or `options.now` is not a valid
 *   number, which would otherwise let any timestamp pass.
 * @example
 * ```ts
 * // The secret comes from RECOGNITION_WEBHOOK_SECRET.
 * const event = await verifyWebhook(await request.text(), request.headers);
 * if (event.type === 'recognition.created') console.log(event.data.message);
 * ```
 */
export function verifyWebhook(
  payload: WebhookPayload,
  headers: WebhookRequestHeaders,
  secret?: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  backend ??= nodeCrypto() ?? webCrypto;
  return verifyWith(backend, payload, headers, secret, options);
}

/** {@link verifyWebhook} with the HMAC implementation chosen by the caller; tests run both. */
export async function verifyWith(
  backend: HmacBackend,
  payload: WebhookPayload,
  headers: WebhookRequestHeaders,
  secret: string | readonly string[] | undefined,
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const tolerance = options.tolerance ?? WEBHOOK_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) {
    throw new ConfigurationError(
      'tolerance',
      '`tolerance` must be a number of seconds, 0 or more.',
    );
  }
  const keys = parseKeys(secret);
  const body = toBody(payload);
  const [id, timestamp, signature] = readRequiredHeaders(headers);
  const signatures = parseSignatures(signature);
  checkTimestamp(timestamp, nowInSeconds(options.now), tolerance);

  const prefix = `${id}.${timestamp}.`;
  const bodies = receivedBodies(body);
  for (const { secret, key } of keys) {
    for (const signed of bodies) {
      const expected = await backend.sign(secret, key, { prefix, body: signed });
      if (signatures.some((signature) => backend.equal(expected, signature))) {
        return parseEvent(signed);
      }
    }
  }
  throw new WebhookVerificationError(
    'invalid_signature',
    'No webhook-signature entry matches the body under the given secret',
  );
}

interface ParsedSecret {
  secret: string;
  key: Uint8Array<ArrayBuffer>;
}

// Decoded secrets, so that the base64 of a secret is checked and decoded once, not per delivery.
const parsedSecrets = new Map<string, ParsedSecret>();

/** The secrets to try: those given, or the one in the environment when none is given. */
function parseKeys(secret: unknown): ParsedSecret[] {
  if (secret === undefined || secret === null) {
    const fromEnv = readEnv(ENV_WEBHOOK_SECRET);
    if (fromEnv === undefined) {
      throw new WebhookVerificationError(
        'invalid_secret',
        `No webhook secret: pass one to verifyWebhook() or set the ${ENV_WEBHOOK_SECRET} environment variable`,
      );
    }
    return [parseKey(fromEnv, `The ${ENV_WEBHOOK_SECRET} environment variable`)];
  }
  // One secret, the usual case, skips flat(): a few per cent of a 1 KB verification.
  if (typeof secret === 'string') return [parseKey(secret)];
  const keys = [secret].flat().map((each) => parseKey(each));
  if (keys.length === 0) {
    throw new WebhookVerificationError('invalid_secret', 'The list of webhook secrets is empty');
  }
  return keys;
}

/** The decoded key of `secret`; `source` names where it came from, never its value. */
function parseKey(secret: unknown, source = 'A webhook secret'): ParsedSecret {
  if (typeof secret === 'string') {
    const parsed = parsedSecrets.get(secret);
    if (parsed) return parsed;
    const key = parseSecret(secret);
    if (key) return remember(parsedSecrets, secret, { secret, key });
  }
  throw new WebhookVerificationError(
    'invalid_secret',
    `${source} must be whsec_ followed by non-empty base64`,
  );
}

/** The body's bytes without copying (the signature covers exactly these), or its string. */
function toBody(payload: unknown): string | Uint8Array {
  if (typeof payload === 'string') return payload;
  if (ArrayBuffer.isView(payload)) {
    return new Uint8Array(payload.buffer, payload.byteOffset, payload.byteLength);
  }
  if (payload instanceof ArrayBuffer) return new Uint8Array(payload);
  throw new WebhookVerificationError(
    'invalid_payload',
    'The payload must be the raw body: a string, Uint8Array or ArrayBuffer',
  );
}

const BOM = '\uFEFF';
const LEADING_BOM = /^\uFEFF/;

/**
 * What the bytes received may have been. Bytes are those bytes. A string is what a decoder made
 * of them, and a UTF-8 decoder (`request.text()`, `TextDecoder`) drops one leading byte order
 * mark while `Buffer#toString` keeps it: so the bytes were the string's, or a BOM and then the
 * string's. Both are tried; the signature still covers exactly the bytes that arrived.
 */
function receivedBodies(body: string | Uint8Array): (string | Uint8Array)[] {
  return typeof body === 'string' ? [body, BOM + body] : [body];
}

const HEADERS = [WEBHOOK_HEADER_ID, WEBHOOK_HEADER_TIMESTAMP, WEBHOOK_HEADER_SIGNATURE];

/** The id, timestamp and signature headers, read in one pass; the first one missing throws. */
function readRequiredHeaders(headers: unknown): [string, string, string] {
  const values = readHeaders(headers, HEADERS);
  HEADERS.forEach((name, index) => {
    if (values[index] === undefined) {
      throw new WebhookVerificationError('missing_header', `The ${name} header is missing`);
    }
  });
  return values as [string, string, string];
}

/**
 * The values of the headers `names` (lower case), in that order, each `undefined` when absent or
 * empty. Repeated values are joined with `, `, as `Headers.get` does, so both forms verify alike.
 * A plain object is read in one pass over its keys, comparing each key as it is before lowering
 * its case: Node gives the names in lower case already.
 */
export function readHeaders(headers: unknown, names: readonly string[]): (string | undefined)[] {
  if (typeof headers !== 'object' || headers === null) return [];
  if (typeof (headers as Headers).get === 'function') {
    return names.map((name) => {
      const value: unknown = (headers as Headers).get(name);
      return typeof value === 'string' && value ? value : undefined;
    });
  }
  const values: (string | undefined)[] = [];
  for (const key of Object.keys(headers)) {
    let index = names.indexOf(key);
    if (index < 0) index = names.indexOf(key.toLowerCase());
    if (index < 0) continue;
    const value: unknown = (headers as Record<string, unknown>)[key];
    if (Array.isArray(value)) for (const each of value as unknown[]) append(values, index, each);
    else append(values, index, value);
  }
  // An empty value counts as absent, as it does for Headers.get.
  for (let index = 0; index < names.length; index++) values[index] ||= undefined;
  return values;
}

function append(values: (string | undefined)[], index: number, value: unknown): void {
  if (typeof value !== 'string') return;
  const joined = values[index];
  values[index] = joined === undefined ? value : `${joined}, ${value}`;
}

// Entries are separated by spaces; a comma also ends one, since a repeated header arrives joined
// with `, `. Base64 holds neither, so the first comma of an entry ends its version.
const ENTRY = new RegExp(`(?:^|[\\s,])${WEBHOOK_SIGNATURE_VERSION},([^\\s,]+)`, 'g');
// One spelling per signature, as the Standard Webhooks reference (which compares the text) has.
// Only a 32-byte HMAC-SHA256 can match, and its canonical base64 ends in one `=` after a character
// whose 2 bits beyond the bytes are zero: any other spelling of the same bytes does not.
const CANONICAL_END = /[AEIMQUYcgkosw048]=$/;

/** The decoded `v1` signatures in a `webhook-signature` header; other versions and garbage are skipped. */
export function parseSignatures(header: string): Uint8Array[] {
  const signatures: Uint8Array[] = [];
  // exec on the one shared RegExp: matchAll would copy it on every call. exec leaves lastIndex
  // at 0 when it finds no more entries, and nothing else runs in between.
  ENTRY.lastIndex = 0;
  for (let entry = ENTRY.exec(header); entry; entry = ENTRY.exec(header)) {
    const text = entry[1]!;
    const signature = CANONICAL_END.test(text) && decodeBase64(text);
    if (signature) signatures.push(signature);
  }
  return signatures;
}

const DIGITS = /^\d+$/;

/**
 * Rejects a `webhook-timestamp` that is not Unix seconds in digits, or lies more than `tolerance`
 * seconds from `now` (Unix seconds) either way: replay protection.
 */
function checkTimestamp(header: string, now: number, tolerance: number): void {
  if (!DIGITS.test(header)) {
    throw new WebhookVerificationError(
      'invalid_timestamp',
      'The webhook-timestamp header is not Unix seconds in digits',
    );
  }
  const age = now - Number(header);
  if (age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_old',
      `The webhook-timestamp is more than ${tolerance} seconds in the past`,
    );
  }
  if (-age > tolerance) {
    throw new WebhookVerificationError(
      'timestamp_too_new',
      `The webhook-timestamp is more than ${tolerance} seconds in the future`,
    );
  }
}

function nowInSeconds(now: VerifyWebhookOptions['now']): number {
  const time = Number(typeof now === 'function' ? now() : (now ?? Date.now()));
  // An invalid clock would make every timestamp comparison false, that is, pass.
  if (!Number.isFinite(time)) {
    throw new ConfigurationError('now', '`now` must be a valid Date or epoch milliseconds.');
  }
  return Math.floor(time / 1000);
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/**
 * Parses the body as received into an event: UTF-8 JSON, an object with a string `type`. One
 * leading BOM is dropped from a string as the decoder drops it from bytes, so every form of the
 * same delivery parses alike.
 */
function parseEvent(body: string | Uint8Array): WebhookEvent {
  let event: unknown;
  try {
    const text = typeof body !== 'string' ? decoder.decode(body) : body.replace(LEADING_BOM, '');
    event = JSON.parse(text);
  } catch {
    throw new WebhookVerificationError('invalid_payload', 'The verified body is not UTF-8 JSON');
  }
  if (typeof (event as { type?: unknown } | null)?.type !== 'string') {
    throw new WebhookVerificationError(
      'invalid_payload',
      'The verified body is not an event: it has no string type',
    );
  }
  return event as WebhookEvent;
}
