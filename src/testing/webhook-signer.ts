import {
  WEBHOOK_HEADER_ID,
  WEBHOOK_HEADER_SIGNATURE,
  WEBHOOK_HEADER_TIMESTAMP,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOK_SIGNATURE_VERSION,
} from '../contract.js';
import { encodeBase64, parseSecret, webCrypto } from '../webhooks/crypto.js';

/** The three Standard Webhooks headers a delivery carries. */
export interface WebhookHeaders {
  /** The message id, the same on every retry of a delivery. */
  'webhook-id': string;
  /** Unix seconds of the attempt. */
  'webhook-timestamp': string;
  /** Space-separated `v1,<base64>` entries, one per secret. */
  'webhook-signature': string;
}

function toUnixSeconds(timestamp: number | Date): number {
  const seconds = timestamp instanceof Date ? Math.floor(timestamp.getTime() / 1000) : timestamp;
  if (!Number.isSafeInteger(seconds) || seconds < 0) {
    throw new RangeError(
      'timestamp must be a valid Date or a whole, non-negative Unix seconds value',
    );
  }
  return seconds;
}

/** Options of {@link signWebhook}. */
export interface SignWebhookOptions {
  /** The message id, the same on every retry of a delivery. Default `msg_` and a random suffix. */
  id?: string | undefined;
  /** When the attempt was made: Unix seconds or a Date. Default now. */
  timestamp?: number | Date | undefined;
}

/**
 * Signs `payload` the way the service signs a delivery, for tests and local tools.
 *
 * @param payload - The exact body that will be sent.
 * @param secret - A `whsec_…` secret, or several: one `v1` signature each, as during a rotation.
 * @param options - `id` defaults to `msg_` and a random suffix; `timestamp` (Unix seconds or a
 *   Date) defaults to now.
 * @returns The headers to send with `payload`.
 * @throws TypeError when a secret is not `whsec_` followed by base64.
 */
export async function signWebhook(
  payload: string | Uint8Array,
  secret: string | string[],
  options: SignWebhookOptions = {},
): Promise<WebhookHeaders> {
  const id = options.id ?? `msg_${crypto.randomUUID().replaceAll('-', '')}`;
  const timestamp = String(toUnixSeconds(options.timestamp ?? new Date()));
  const content = { prefix: `${id}.${timestamp}.`, body: payload };
  const signatures = await Promise.all(
    [secret].flat().map(async (each) => {
      const key = parseSecret(each);
      if (!key)
        throw new TypeError(`A webhook secret must be ${WEBHOOK_SECRET_PREFIX} then base64`);
      const mac = await webCrypto.sign(each, key, content);
      return `${WEBHOOK_SIGNATURE_VERSION},${encodeBase64(mac)}`;
    }),
  );
  return {
    [WEBHOOK_HEADER_ID]: id,
    [WEBHOOK_HEADER_TIMESTAMP]: timestamp,
    [WEBHOOK_HEADER_SIGNATURE]: signatures.join(' '),
  } as WebhookHeaders;
}

/** Makes a fresh `whsec_` secret holding 32 random bytes, as the service issues them. */
export function generateWebhookSecret(): string {
  return WEBHOOK_SECRET_PREFIX + encodeBase64(crypto.getRandomValues(new Uint8Array(32)));
}
