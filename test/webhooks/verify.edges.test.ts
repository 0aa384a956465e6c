/**
 * verifyWebhook at the edges of its reading: a tolerance of 0, a BOM inside a body, header
 * containers that are not what they seem, bytes that are not UTF-8 inside a JSON string. Each case
 * pins a line a mutation of it changed without a test failing (docs/mutation-testing.md).
 */
import { describe, expect, it, vi } from 'vitest';
import { webCrypto, nodeCrypto } from '../../src/webhooks/crypto.js';
import {
  parseSignatures,
  readHeaders,
  verifyWebhook,
  verifyWith,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from '../../src/webhooks/verify.js';
import { expectRejection, NOW, NOW_MS, SECRET, sign } from './fixtures.js';

const verify = (payload: WebhookPayload, headers: WebhookRequestHeaders, tolerance?: number) =>
  verifyWith(nodeCrypto()!, payload, headers, SECRET, { now: NOW_MS, tolerance });

describe('verifyWebhook: the backend', () => {
  it('signs with node:crypto where the runtime has it, never calling Web Crypto', async () => {
    const body = '{"type":"user.created"}';
    const headers = await sign(body);
    const webSign = vi.spyOn(webCrypto, 'sign');
    await expect(verifyWebhook(body, headers, SECRET, { now: NOW_MS })).resolves.toEqual({
      type: 'user.created',
    });
    expect(webSign).not.toHaveBeenCalled();
  });
});

describe('verifyWebhook: edges of the timestamp and the body', () => {
  it('takes a tolerance of 0: only a timestamp of this very second passes', async () => {
    const body = '{"type":"user.created"}';
    await expect(verify(body, await sign(body, SECRET, NOW), 0)).resolves.toBeDefined();
    await expectRejection(verify(body, await sign(body, SECRET, NOW - 1), 0), 'timestamp_too_old');
  });

  it('drops a leading BOM only: one inside the body is the event’s own text', async () => {
    const body = '{"type":"user.created","note":"a\uFEFFb"}';
    await expect(verify(body, await sign(body))).resolves.toEqual({
      type: 'user.created',
      note: 'a\uFEFFb',
    });
  });

  it('rejects bytes that are not UTF-8 even inside a JSON string, rather than replacing them', async () => {
    const text = new TextEncoder().encode('{"type":"user.created","note":"ab"}');
    // The byte 0xFF between a and b: JSON around it, but no UTF-8 text.
    const body = new Uint8Array([...text.slice(0, -3), 0xff, ...text.slice(-3)]);
    await expectRejection(verify(body, await sign(body)), 'invalid_payload');
  });
});

describe('verifyWebhook: header containers', () => {
  it('counts an empty value in a Fetch Headers as absent', async () => {
    const signed: Record<string, string> = { ...(await sign()) };
    const headers = new Headers(signed);
    headers.set('webhook-id', '');
    await expectRejection(verify('{"type":"x"}', headers), 'missing_header');
  });

  it('reads no header from a get() that answers something other than a string', async () => {
    const signed = await sign();
    const map = new Map(Object.entries(signed).map(([name, value]) => [name, [value]]));
    await expectRejection(
      verify('{"type":"x"}', map as unknown as WebhookRequestHeaders),
      'missing_header',
    );
  });

  it('names the first header, webhook-id, when there are no headers at all', async () => {
    const error = await verify('{"type":"x"}', null as unknown as WebhookRequestHeaders).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({
      reason: 'missing_header',
      message: 'The webhook-id header is missing',
    });
  });
});

describe('readHeaders', () => {
  it('gives one value per name asked, in that order, from a plain object', () => {
    const values = readHeaders({ B: 'two', a: 'one', c: '' }, ['a', 'b', 'c']);
    expect(values).toHaveLength(3);
    expect(values).toEqual(['one', 'two', undefined]);
  });
});

describe('parseSignatures: canonical base64 of every length', () => {
  it('reads a signature whose last group holds 3, 2 or 1 bytes', () => {
    expect(parseSignatures('v1,AAAA v1,AAA= v1,AA==').map((bytes) => bytes.length)).toEqual([
      3, 2, 1,
    ]);
  });

  it('skips a last group with bits set beyond its bytes', () => {
    expect(parseSignatures('v1,AAB= v1,AB==')).toEqual([]);
  });
});
