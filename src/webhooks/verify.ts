import {
  WEBHOOK_HEADER_ID,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_TOLERANCE_SECONDS,
} from '../contract.js';
import type { HmacBackend } from './backend.js';
import { remember } from './cache.js';
import { nodeCrypto } from './crypto-node.js';
import { webCrypto } from './crypto-web.js';
import { WebhookVerificationError } from './errors.js';
import type { WebhookEvent } from './events.js';
import { readHeaders, type WebhookRequestHeaders } from './headers.js';
import { parseEvent, toBody, type WebhookPayload } from './payload.js';
import { parseSecret } from './secret.js';
import { parseSignatures } from './signature.js';
import { checkTimestamp } from './timestamp.js';

/** Options of {@link verifyWebhook}. */
export interface VerifyWebhookOptions {
  /** Seconds the `webhook-timestamp` may differ from now, either way; 0 or more. Default 300. */
  tolerance?: number;
  /** The current time as a Date, epoch milliseconds, or a function returning either; for tests. */
  now?: Date | number | (() => Date | number);
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

function nowInSeconds(now: VerifyWebhookOptions['now']): number {
  const time = Number(typeof now === 'function' ? now() : (now ?? Date.now()));
  // An invalid clock would make every timestamp comparison false, that is, pass.
  if (!Number.isFinite(time)) {
    throw new RangeError('now must be a valid Date or epoch milliseconds');
  }
  return Math.floor(time / 1000);
}

interface ParsedSecret {
  secret: string;
  key: Uint8Array<ArrayBuffer>;
}

function invalidSecret(): WebhookVerificationError {
  return new WebhookVerificationError(
    'invalid_secret',
    'A webhook secret must be whsec_ followed by non-empty base64',
  );
}

// Decoded secrets, so that the base64 of a secret is checked and decoded once, not per delivery.
const parsedSecrets = new Map<string, ParsedSecret>();

function parseKey(secret: unknown): ParsedSecret {
  if (typeof secret !== 'string') throw invalidSecret();
  let parsed = parsedSecrets.get(secret);
  if (!parsed) {
    const key = parseSecret(secret);
    if (!key) throw invalidSecret();
    parsed = remember(parsedSecrets, secret, { secret, key });
  }
  return parsed;
}

/** {@link verifyWebhook} with the HMAC implementation chosen by the caller; tests run both. */
export async function verifyWith(
  backend: HmacBackend,
  payload: WebhookPayload,
  headers: WebhookRequestHeaders,
  secret: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const tolerance = options.tolerance ?? WEBHOOK_TOLERANCE_SECONDS;
  if (!(tolerance >= 0)) throw new RangeError('tolerance must be a number of seconds, 0 or more');
  // One secret, the usual case, skips flat(): a few per cent of a 1 KB verification.
  const keys = typeof secret === 'string' ? [parseKey(secret)] : [secret].flat().map(parseKey);
  if (keys.length === 0) throw invalidSecret();
  const body = toBody(payload);
  const [id, timestamp, signature] = readRequiredHeaders(headers);
  const signatures = parseSignatures(signature);
  checkTimestamp(timestamp, nowInSeconds(options.now), tolerance);

  const content = { prefix: `${id}.${timestamp}.`, body };
  for (const { secret, key } of keys) {
    const expected = await backend.sign(secret, key, content);
    if (signatures.some((signature) => backend.equal(expected, signature))) {
      return parseEvent(body);
    }
  }
  throw new WebhookVerificationError(
    'invalid_signature',
    'No webhook-signature entry matches the body under the given secret',
  );
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
 * @param options - `tolerance` in seconds (default 300) and `now` (for tests).
 * @returns The verified event, typed by its `type`.
 * @throws {@link WebhookVerificationError} (as a rejection) when the delivery must not be trusted
 *   or a secret is malformed; its `reason` says which check failed.
 * @throws RangeError (as a rejection) when `options.tolerance` or `options.now` is not a valid
 *   number, which would otherwise let any timestamp pass.
 * @example
 * ```ts
 * const event = await verifyWebhook(await request.text(), request.headers, process.env.WEBHOOK_SECRET!);
 * if (event.type === 'recognition.created') console.log(event.data.message);
 * ```
 */
export function verifyWebhook(
  payload: WebhookPayload,
  headers: WebhookRequestHeaders,
  secret: string | readonly string[],
  options?: VerifyWebhookOptions,
): Promise<WebhookEvent> {
  backend ??= nodeCrypto() ?? webCrypto;
  return verifyWith(backend, payload, headers, secret, options);
}
