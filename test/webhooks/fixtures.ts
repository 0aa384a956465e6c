import { expect } from 'vitest';
import { signWebhook, type WebhookHeaders } from '../../src/testing/webhook-signer.js';
import { WebhookVerificationError } from '../../src/webhooks/errors.js';

/** The secret of the Standard Webhooks test vector. */
export const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
export const OTHER_SECRET = 'whsec_c2Vjb25kIHNlY3JldCwgZm9yIHJvdGF0aW9uIHRlc3Rz';
export const ID = 'evt_2b9c4e1e6a0f4c0e9d3f0c1e2a3b4c5d';
/** The fixed clock of these tests, in Unix seconds. */
export const NOW = 1_795_000_000;
export const NOW_MS = NOW * 1000;

export const recognitionCreated = {
  id: ID,
  type: 'recognition.created',
  created_at: '2026-11-18T08:26:40Z',
  data: {
    id: '0b6f7c1e-3f0a-4a8e-9b1d-2c3e4f5a6b7c',
    sender: { id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', name: 'Ada' },
    recipient: { id: '2d3e4f5a-6b7c-4d8e-9f0a-1b2c3d4e5f6a', name: 'Grace' },
    message: 'Thanks for the review — très bien 👏',
    points: 10,
    created_at: '2026-11-18T08:26:40Z',
  },
};
export const BODY = JSON.stringify(recognitionCreated);

/** Headers for `body` signed at `timestamp` with `secret`, under the fixed id. */
export function sign(
  body: string | Uint8Array = BODY,
  secret: string | string[] = SECRET,
  timestamp = NOW,
): Promise<WebhookHeaders> {
  return signWebhook(body, secret, { id: ID, timestamp });
}

/** Asserts that `promise` rejects with a WebhookVerificationError of `reason`. */
export async function expectRejection(promise: Promise<unknown>, reason: string): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe(reason);
}

/** A webhook for `url` subscribed to every event, as the service lists it, `fields` instead of its own. */
export function listedWebhook(url: string, fields: Record<string, unknown> = {}) {
  return {
    id: '0b1c2d3e-4f50-4a6b-8c7d-9e0f1a2b3c4d',
    url,
    events: ['*'],
    description: null,
    enabled: true,
    created_at: new Date().toISOString(),
    ...fields,
  };
}
