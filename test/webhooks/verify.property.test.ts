import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import type { WebhookHeaders } from '../../src/testing/webhook-signer.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import { nodeCrypto, webCrypto } from '../../src/webhooks/crypto.js';
import { WebhookVerificationError } from '../../src/webhooks/errors.js';
import { verifyWith } from '../../src/webhooks/verify.js';
import { FUZZ_SEED, fuzzRuns } from '../support/fuzz.js';
import { BODY, NOW_MS, SECRET, sign } from './fixtures.js';

const backends = [nodeCrypto()!, webCrypto];
const options = { now: NOW_MS };

/** Runs verification with both backends; each must end in an event or a WebhookVerificationError. */
async function outcomes(payload: unknown, headers: unknown, secret: unknown): Promise<string[]> {
  return Promise.all(
    backends.map((backend) =>
      verifyWith(backend, payload as never, headers as never, secret as never, options).then(
        (event) => {
          expect(typeof event.type).toBe('string');
          return 'event';
        },
        (error: unknown) => {
          expect(error).toBeInstanceOf(WebhookVerificationError);
          const { message, reason } = error as WebhookVerificationError;
          for (const each of [secret].flat()) {
            if (typeof each === 'string' && each.length > 10)
              expect(message).not.toContain(each.slice(6));
          }
          return reason;
        },
      ),
    ),
  );
}

let valid: WebhookHeaders;
beforeAll(async () => {
  valid = await sign();
});

const anyCase = (name: string) =>
  fc
    .array(fc.boolean(), { minLength: name.length, maxLength: name.length })
    .map((upper) => [...name].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
const headerValue = (name: keyof WebhookHeaders) =>
  fc.oneof(
    { arbitrary: fc.constant(() => valid[name]), weight: 12 },
    fc.string().map((s) => () => s),
    fc.array(fc.string(), { maxLength: 3 }).map((values) => () => values),
    fc.constant(() => [valid[name], valid[name]]),
    fc.anything().map((value) => () => value),
  );
// The valid values are weighted so that a fair share of runs gets past each check.
const headers = fc.oneof(fc.anything(), {
  weight: 8,
  arbitrary: fc
    .record({
      id: fc.tuple(anyCase('webhook-id'), headerValue('webhook-id')),
      timestamp: fc.tuple(anyCase('webhook-timestamp'), headerValue('webhook-timestamp')),
      signature: fc.tuple(anyCase('webhook-signature'), headerValue('webhook-signature')),
      extra: fc.dictionary(fc.string(), fc.anything(), { maxKeys: 3 }),
      asFetchHeaders: fc.boolean(),
    })
    .map(({ id, timestamp, signature, extra, asFetchHeaders }) => () => {
      const entries = [id, timestamp, signature].map(([name, value]) => [name, value()] as const);
      if (!asFetchHeaders) return { ...extra, ...Object.fromEntries(entries) };
      const fetchHeaders = new Headers();
      for (const [name, value] of entries) {
        for (const each of [value].flat()) {
          if (typeof each === 'string' && /^[\t\x20-\x7e]*$/.test(each)) {
            fetchHeaders.append(name, each);
          }
        }
      }
      return fetchHeaders;
    }),
});
const payload = fc.oneof(
  { arbitrary: fc.constant(BODY), weight: 8 },
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.uint8Array(),
  fc.uint8Array().map((bytes) => bytes.buffer),
  fc.anything(),
);
const secret = fc.oneof(
  { arbitrary: fc.constant(SECRET), weight: 10 },
  fc.string(),
  fc.string().map((s) => `whsec_${s}`),
  fc.base64String().map((s) => `whsec_${s}`),
  fc.array(fc.oneof(fc.constant(SECRET), fc.string()), { maxLength: 3 }),
  fc.anything(),
);

describe('verification of arbitrary input', () => {
  it('only ever ends in an event or a WebhookVerificationError, the same with both backends', async () => {
    await fc.assert(
      fc.asyncProperty(payload, headers, secret, async (body, makeHeaders, key) => {
        const headerInput = typeof makeHeaders === 'function' ? makeHeaders() : makeHeaders;
        const [fromNode, fromWeb] = await outcomes(body, headerInput, key);
        expect(fromNode).toBe(fromWeb);
      }),
      { seed: 20_261_118, numRuns: 1000 },
    );
  });

  it('passes the signature check for any signed bytes and secret, and fails it after any one-byte change', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 512 }),
        fc.uint8Array({ minLength: 1, maxLength: 64 }),
        fc.nat(),
        async (bytes, key, at) => {
          const whsec = `whsec_${Buffer.from(key).toString('base64')}`;
          const signed = await signWebhook(bytes, whsec, { id: 'evt_p', timestamp: NOW_MS / 1000 });
          for (const reason of await outcomes(bytes, signed, whsec)) {
            expect(['event', 'invalid_payload']).toContain(reason);
          }
          if (bytes.length === 0) return;
          const tampered = bytes.slice();
          tampered[at % bytes.length]! ^= 1;
          expect(await outcomes(tampered, signed, whsec)).toEqual([
            'invalid_signature',
            'invalid_signature',
          ]);
        },
      ),
      { seed: 20_261_118, numRuns: 300 },
    );
  });

  it("fails any change to a signature's text, the other spellings of the same bytes included", async () => {
    const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
    const [version, text] = valid['webhook-signature'].split(',') as [string, string];
    // An HMAC-SHA256 is 32 bytes: 43 characters and one `=`, the last character's 2 low bits unused.
    const last = ALPHABET.indexOf(text.at(-2)!);
    // Any character but the separators of entries (a space, a comma), which end the text.
    const char = fc
      .string({ unit: 'binary', minLength: 1, maxLength: 1 })
      .filter((c) => !/[\s,]/.test(c));
    const spelling = fc.oneof(
      fc.integer({ min: 1, max: 3 }).map((bits) => `${text.slice(0, -2)}${ALPHABET[last ^ bits]}=`),
      fc.constantFrom(text.slice(0, -1), `${text}=`, `${text.slice(0, -1)}A=`),
      fc
        .tuple(fc.nat(text.length), fc.array(char, { minLength: 1, maxLength: 3 }))
        .map(([at, inserted]) => text.slice(0, at) + inserted.join('') + text.slice(at)),
      fc
        .tuple(fc.nat(text.length - 1), char)
        .map(([at, replaced]) => text.slice(0, at) + replaced + text.slice(at + 1)),
    );
    await fc.assert(
      fc.asyncProperty(
        spelling.filter((changed) => changed !== text),
        async (changed) => {
          const headers = { ...valid, 'webhook-signature': `${version},${changed}` };
          expect(await outcomes(BODY, headers, SECRET)).toEqual([
            'invalid_signature',
            'invalid_signature',
          ]);
        },
      ),
      { seed: FUZZ_SEED, numRuns: fuzzRuns(200) },
    );
  });
});
