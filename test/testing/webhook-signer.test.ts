import { afterEach, describe, expect, it, vi } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/testing/webhook-signer.js';
import { verifyWebhook } from '../../src/webhooks/index.js';

// The Standard Webhooks test vector.
const SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const VECTOR = {
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  payload: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};
const OTHER_SECRET = 'whsec_c2Vjb25kIHNlY3JldCwgZm9yIHJvdGF0aW9uIHRlc3Rz';

afterEach(() => {
  vi.useRealTimers();
});

describe('signWebhook', () => {
  it('produces the three headers of the Standard Webhooks test vector', async () => {
    const { id, timestamp, payload, signature } = VECTOR;
    await expect(signWebhook(payload, SECRET, { id, timestamp })).resolves.toEqual({
      'webhook-id': id,
      'webhook-timestamp': '1614265330',
      'webhook-signature': signature,
    });
  });

  it('signs a Uint8Array body exactly like the same text', async () => {
    const { id, timestamp, payload } = VECTOR;
    const bytes = new TextEncoder().encode(payload);
    expect(await signWebhook(bytes, SECRET, { id, timestamp })).toEqual(
      await signWebhook(payload, SECRET, { id, timestamp }),
    );
  });

  it('takes the timestamp as a Date, truncated to whole seconds', async () => {
    const { id, timestamp, payload, signature } = VECTOR;
    const headers = await signWebhook(payload, SECRET, {
      id,
      timestamp: new Date(timestamp * 1000 + 999),
    });
    expect(headers['webhook-timestamp']).toBe('1614265330');
    expect(headers['webhook-signature']).toBe(signature);
  });

  it('defaults to the current time and a random msg_ id', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: 1_795_000_000_500 });
    const first = await signWebhook('{}', SECRET);
    const second = await signWebhook('{}', SECRET);
    expect(first['webhook-timestamp']).toBe('1795000000');
    expect(first['webhook-id']).toMatch(/^msg_[0-9a-f]{32}$/);
    expect(second['webhook-id']).not.toBe(first['webhook-id']);
  });

  it('writes one v1 entry per secret, in order, for rotations', async () => {
    const { id, timestamp, payload, signature } = VECTOR;
    const headers = await signWebhook(payload, [SECRET, OTHER_SECRET], { id, timestamp });
    const entries = headers['webhook-signature'].split(' ');
    expect(entries).toHaveLength(2);
    expect(entries[0]).toBe(signature);
    expect(entries[1]).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(entries[1]).not.toBe(signature);
  });

  it('throws a TypeError for a malformed secret, without repeating it', async () => {
    await expect(signWebhook('{}', 'whsec_not base64!')).rejects.toThrow(TypeError);
    await expect(signWebhook('{}', [SECRET, 'sk_secretvalue'])).rejects.toThrow(
      expect.objectContaining({ message: expect.not.stringContaining('secretvalue') }),
    );
  });

  it('throws a RangeError for a timestamp that is not whole non-negative seconds', async () => {
    for (const timestamp of [-1, 1.5, Number.NaN, new Date(Number.NaN)]) {
      await expect(signWebhook('{}', SECRET, { timestamp })).rejects.toThrow(RangeError);
    }
  });
});

describe('generateWebhookSecret', () => {
  it('makes whsec_ secrets of 32 random bytes', () => {
    const secret = generateWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(secret.slice('whsec_'.length), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(secret);
  });

  it('makes secrets that sign deliveries verifyWebhook accepts', async () => {
    const secret = generateWebhookSecret();
    const headers = await signWebhook('{"type":"user.created"}', secret, {
      timestamp: 1_795_000_000,
    });
    await expect(
      verifyWebhook('{"type":"user.created"}', headers, secret, { now: 1_795_000_000_000 }),
    ).resolves.toEqual({ type: 'user.created' });
  });
});
