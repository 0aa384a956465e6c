/**
 * What each rejection of verifyWebhook says, besides its `reason`: the message is what a receiver
 * logs, so it names the check, the header and the limit that failed. The other verification tests
 * assert the reason only, so a message emptied or swapped went unnoticed (docs/mutation-testing.md).
 */
import { describe, expect, it, vi } from 'vitest';
import { ConfigurationError } from '../../src/core/config.js';
import { ENV_WEBHOOK_SECRET } from '../../src/contract.js';
import { nodeCrypto } from '../../src/webhooks/crypto.js';
import { WebhookVerificationError } from '../../src/webhooks/errors.js';
import {
  type VerifyWebhookOptions,
  verifyWith,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from '../../src/webhooks/verify.js';
import { BODY, NOW, NOW_MS, SECRET, sign } from './fixtures.js';

const verify = (
  payload: WebhookPayload,
  headers: WebhookRequestHeaders,
  secret: string | string[] = SECRET,
  options: VerifyWebhookOptions = { now: NOW_MS },
) => verifyWith(nodeCrypto()!, payload, headers, secret, options);

/** The error `promise` rejects with, which must be a WebhookVerificationError of `reason`. */
async function rejection(promise: Promise<unknown>, reason: string): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookVerificationError);
  expect((error as WebhookVerificationError).reason).toBe(reason);
  return (error as Error).message;
}

describe('verifyWebhook: each rejection names what failed', () => {
  it('a signature that matches no secret', async () => {
    const headers = { ...(await sign()), 'webhook-signature': 'v1,AAAA' };
    expect(await rejection(verify(BODY, headers), 'invalid_signature')).toBe(
      'No webhook-signature entry matches the body under the given secret',
    );
  });

  it('a missing header, by its name', async () => {
    for (const name of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      const headers: Record<string, string> = { ...(await sign()) };
      delete headers[name];
      expect(await rejection(verify(BODY, headers), 'missing_header')).toBe(
        `The ${name} header is missing`,
      );
    }
  });

  it('a timestamp out of tolerance, by the tolerance and its direction', async () => {
    const options = { now: NOW_MS, tolerance: 10 };
    expect(
      await rejection(
        verify(BODY, await sign(BODY, SECRET, NOW - 11), SECRET, options),
        'timestamp_too_old',
      ),
    ).toBe('The webhook-timestamp is more than 10 seconds in the past');
    expect(
      await rejection(
        verify(BODY, await sign(BODY, SECRET, NOW + 11), SECRET, options),
        'timestamp_too_new',
      ),
    ).toBe('The webhook-timestamp is more than 10 seconds in the future');
  });

  it('a timestamp that is not digits', async () => {
    const headers = { ...(await sign()), 'webhook-timestamp': 'soon' };
    expect(await rejection(verify(BODY, headers), 'invalid_timestamp')).toBe(
      'The webhook-timestamp header is not Unix seconds in digits',
    );
  });

  it('a payload that is not a body, and a body that is not an event', async () => {
    const headers = await sign();
    expect(await rejection(verify(42 as unknown as string, headers), 'invalid_payload')).toBe(
      'The payload must be the raw body: a string, Uint8Array or ArrayBuffer',
    );
    expect(await rejection(verify('nope', await sign('nope')), 'invalid_payload')).toBe(
      'The verified body is not UTF-8 JSON',
    );
    expect(await rejection(verify('{}', await sign('{}')), 'invalid_payload')).toBe(
      'The verified body is not an event: it has no string type',
    );
  });

  it('a malformed secret, by where it came from, and an empty list', async () => {
    const headers = await sign();
    expect(await rejection(verify(BODY, headers, 'whsec_'), 'invalid_secret')).toBe(
      'A webhook secret must be whsec_ followed by non-empty base64',
    );
    expect(await rejection(verify(BODY, headers, []), 'invalid_secret')).toBe(
      'The list of webhook secrets is empty',
    );
  });

  it('no secret at all, naming the variable to set', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, undefined);
    expect(
      await rejection(
        verifyWith(nodeCrypto()!, BODY, await sign(), undefined, { now: NOW_MS }),
        'invalid_secret',
      ),
    ).toBe(
      `No webhook secret: pass one to verifyWebhook() or set the ${ENV_WEBHOOK_SECRET} environment variable`,
    );
    vi.stubEnv(ENV_WEBHOOK_SECRET, 'whsec_');
    expect(
      await rejection(
        verifyWith(nodeCrypto()!, BODY, await sign(), undefined, { now: NOW_MS }),
        'invalid_secret',
      ),
    ).toBe(
      `The ${ENV_WEBHOOK_SECRET} environment variable must be whsec_ followed by non-empty base64`,
    );
  });

  it('a tolerance or clock that would pass any timestamp, as a ConfigurationError', async () => {
    const headers = await sign();
    const tolerance = verify(BODY, headers, SECRET, { now: NOW_MS, tolerance: -1 });
    await expect(tolerance).rejects.toBeInstanceOf(ConfigurationError);
    await expect(tolerance).rejects.toMatchObject({
      option: 'tolerance',
      message: '`tolerance` must be a number of seconds, 0 or more.',
    });
    const now = verify(BODY, headers, SECRET, { now: Number.NaN });
    await expect(now).rejects.toBeInstanceOf(ConfigurationError);
    await expect(now).rejects.toMatchObject({
      option: 'now',
      message: '`now` must be a valid Date or epoch milliseconds.',
    });
  });
});
