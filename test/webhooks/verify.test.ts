import { ConfigurationError } from '../../src/core/config.js';
import { describe, expect, it, vi } from 'vitest';
import { ENV_WEBHOOK_SECRET } from '../../src/contract.js';
import { signWebhook } from '../../src/testing/webhook-signer.js';
import { MAX_CACHED_SECRETS, nodeCrypto, webCrypto } from '../../src/webhooks/crypto.js';
import { verifyWebhook, WebhookVerificationError } from '../../src/webhooks/index.js';
import {
  parseSignatures,
  type VerifyWebhookOptions,
  verifyWith,
  type WebhookPayload,
  type WebhookRequestHeaders,
} from '../../src/webhooks/verify.js';
import {
  BODY,
  expectRejection,
  ID,
  NOW,
  NOW_MS,
  OTHER_SECRET,
  recognitionCreated,
  SECRET,
  sign,
} from './fixtures.js';

const backends = [
  ['node:crypto', nodeCrypto()!],
  ['Web Crypto', webCrypto],
] as const;

describe.each(backends)('verifyWith(%s)', (_name, backend) => {
  const verify = (
    payload: WebhookPayload,
    headers: WebhookRequestHeaders,
    secret: string | string[] = SECRET,
    options: VerifyWebhookOptions = { now: NOW_MS },
  ) => verifyWith(backend, payload, headers, secret, options);

  describe('valid deliveries', () => {
    it('resolves to the parsed event for a correctly signed body', async () => {
      await expect(verify(BODY, await sign())).resolves.toEqual(recognitionCreated);
    });

    it('accepts the body as a string, a Uint8Array, a Node Buffer or an ArrayBuffer', async () => {
      const headers = await sign();
      const bytes = new TextEncoder().encode(BODY);
      for (const payload of [BODY, bytes, Buffer.from(BODY), bytes.buffer]) {
        await expect(verify(payload, headers)).resolves.toEqual(recognitionCreated);
      }
    });

    it('verifies only the bytes a Uint8Array views, not the rest of its buffer', async () => {
      const bytes = new TextEncoder().encode(`junk${BODY}junk`);
      const view = bytes.subarray(4, bytes.length - 4);
      await expect(verify(view, await sign())).resolves.toEqual(recognitionCreated);
    });

    it('accepts a Fetch Headers object', async () => {
      await expect(verify(BODY, new Headers({ ...(await sign()) }))).resolves.toEqual(
        recognitionCreated,
      );
    });

    it('reads plain header objects whatever the case of the names', async () => {
      const headers = await sign();
      const mixed = {
        'Webhook-Id': headers['webhook-id'],
        'WEBHOOK-TIMESTAMP': headers['webhook-timestamp'],
        'wEbHoOk-SiGnAtUrE': headers['webhook-signature'],
      };
      await expect(verify(BODY, mixed)).resolves.toEqual(recognitionCreated);
    });

    it('passes through events of types it does not know yet', async () => {
      const body = JSON.stringify({ ...recognitionCreated, type: 'recognition.reacted' });
      await expect(verify(body, await sign(body))).resolves.toMatchObject({
        type: 'recognition.reacted',
      });
    });
  });

  describe('body and signature', () => {
    it('rejects a tampered body with invalid_signature', async () => {
      const headers = await sign();
      await expectRejection(verify(BODY.replace('10', '99'), headers), 'invalid_signature');
    });

    it('rejects a body signed with another secret with invalid_signature', async () => {
      await expectRejection(verify(BODY, await sign(BODY, OTHER_SECRET)), 'invalid_signature');
    });

    it('rejects a changed webhook-id with invalid_signature', async () => {
      const headers = { ...(await sign()), 'webhook-id': 'evt_other' };
      await expectRejection(verify(BODY, headers), 'invalid_signature');
    });

    it('accepts a delivery signed with any one of several secrets (rotation)', async () => {
      await expect(verify(BODY, await sign(), [OTHER_SECRET, SECRET])).resolves.toBeDefined();
      const rotated = await sign(BODY, OTHER_SECRET);
      await expect(verify(BODY, rotated, [SECRET, OTHER_SECRET])).resolves.toBeDefined();
    });

    it('accepts a header with several v1 entries when any one matches', async () => {
      const good = (await sign())['webhook-signature'];
      const other = (await sign(BODY, OTHER_SECRET))['webhook-signature'];
      for (const signature of [`${other} ${good}`, `${good} ${other}`, `${other}  ${good} `]) {
        const headers = { ...(await sign()), 'webhook-signature': signature };
        await expect(verify(BODY, headers)).resolves.toEqual(recognitionCreated);
      }
    });

    it('ignores entries of other versions, even when they carry the right signature', async () => {
      const headers = await sign();
      const mac = headers['webhook-signature'].slice('v1,'.length);
      for (const entry of [`v2,${mac}`, `v1a,${mac}`, `V1,${mac}`, `xv1,${mac}`, mac]) {
        const changed = { ...headers, 'webhook-signature': entry };
        await expectRejection(verify(BODY, changed), 'invalid_signature');
      }
      const mixed = { ...headers, 'webhook-signature': `v2,${mac} v1,${mac}` };
      await expect(verify(BODY, mixed)).resolves.toEqual(recognitionCreated);
    });

    it('rejects base64 garbage and truncated signatures, and still finds a good entry beside them', async () => {
      const headers = await sign();
      const good = headers['webhook-signature'];
      for (const garbage of ['v1,!!!!', 'v1,', 'v1,====', 'v1,AAAA', good.slice(0, -4), 'v1']) {
        await expectRejection(
          verify(BODY, { ...headers, 'webhook-signature': garbage }),
          'invalid_signature',
        );
        const mixed = { ...headers, 'webhook-signature': `${garbage} ${good}` };
        await expect(verify(BODY, mixed)).resolves.toEqual(recognitionCreated);
      }
    });
  });

  describe('binary payloads', () => {
    // Bytes that are not UTF-8: decoding them to text and encoding again would change them.
    const binary = new Uint8Array([0x7b, 0xff, 0xfe, 0x00, 0xc3, 0x28, 0x80, 0x7d]);

    it('signs the exact bytes: non-UTF-8 bodies pass the signature check, then fail as invalid_payload', async () => {
      const headers = await sign(binary);
      await expectRejection(verify(binary, headers), 'invalid_payload');
      await expectRejection(verify(binary.slice().buffer, headers), 'invalid_payload');
    });

    it('rejects a non-UTF-8 body with one byte changed with invalid_signature', async () => {
      const headers = await sign(binary);
      const tampered = binary.slice();
      tampered[2] = 0xfd;
      await expectRejection(verify(tampered, headers), 'invalid_signature');
      await expectRejection(verify(tampered.buffer, headers), 'invalid_signature');
    });
  });

  describe('a body that starts with a UTF-8 byte order mark', () => {
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const withBom = new Uint8Array([...bom, ...new TextEncoder().encode(BODY)]);

    it('verifies and parses alike as bytes, a Buffer, an ArrayBuffer and every string a receiver gets', async () => {
      const headers = await sign(withBom);
      const forms: WebhookPayload[] = [
        withBom,
        Buffer.from(withBom),
        withBom.slice().buffer,
        Buffer.from(withBom).toString('utf8'), // keeps the BOM as U+FEFF
        new TextDecoder('utf-8', { ignoreBOM: true }).decode(withBom), // keeps it too
        await new Response(withBom).text(), // drops it, as request.text() does
        new TextDecoder().decode(withBom), // drops it
      ];
      for (const payload of forms) {
        await expect(verify(payload, headers)).resolves.toEqual(recognitionCreated);
      }
    });

    it('still checks the exact bytes: a body signed without the BOM does not verify with one, nor the reverse', async () => {
      await expectRejection(verify(withBom, await sign(BODY)), 'invalid_signature');
      await expectRejection(verify(`\uFEFF${BODY}`, await sign(BODY)), 'invalid_signature');
      // A second BOM is content: the signature holds and the JSON does not. (Node's
      // Response#text drops both, so that form cannot tell this body from one with a single BOM.)
      const twice = new Uint8Array([...bom, ...withBom]);
      const headers = await sign(twice);
      await expectRejection(verify(twice, headers), 'invalid_payload');
      await expectRejection(verify(Buffer.from(twice).toString(), headers), 'invalid_payload');
      await expectRejection(verify(new TextDecoder().decode(twice), headers), 'invalid_payload');
    });

    it('rejects a tampered body that arrived with a BOM, whatever its form', async () => {
      const headers = await sign(withBom);
      const tampered = `${BODY} `;
      await expectRejection(verify(tampered, headers), 'invalid_signature');
      await expectRejection(verify(`\uFEFF${tampered}`, headers), 'invalid_signature');
    });
  });

  describe('verified bodies that are not events', () => {
    it.each([
      ['not JSON', 'hello'],
      ['empty', ''],
      ['JSON null', 'null'],
      ['a JSON array', '[]'],
      ['an object without type', '{"id":"evt_1"}'],
      ['an object with a numeric type', '{"type":1}'],
      ['a JSON string', '"recognition.created"'],
    ])('rejects a body that is %s with invalid_payload', async (_case, body) => {
      await expectRejection(verify(body, await sign(body)), 'invalid_payload');
    });

    it('rejects a payload that is neither string, Uint8Array nor ArrayBuffer with invalid_payload', async () => {
      const headers = await sign();
      for (const payload of [undefined, null, 42, { type: 'user.created' }]) {
        await expectRejection(verify(payload as unknown as string, headers), 'invalid_payload');
      }
    });
  });

  describe('timestamps', () => {
    it('accepts timestamps exactly at the tolerance, both ways', async () => {
      await expect(verify(BODY, await sign(BODY, SECRET, NOW - 300))).resolves.toBeDefined();
      await expect(verify(BODY, await sign(BODY, SECRET, NOW + 300))).resolves.toBeDefined();
    });

    it('rejects a timestamp one second too old with timestamp_too_old', async () => {
      await expectRejection(verify(BODY, await sign(BODY, SECRET, NOW - 301)), 'timestamp_too_old');
    });

    it('rejects a timestamp one second too far ahead with timestamp_too_new', async () => {
      await expectRejection(verify(BODY, await sign(BODY, SECRET, NOW + 301)), 'timestamp_too_new');
    });

    it('applies a custom tolerance at its edge', async () => {
      const options = { now: NOW_MS, tolerance: 10 };
      const atEdge = await sign(BODY, SECRET, NOW - 10);
      await expect(verify(BODY, atEdge, SECRET, options)).resolves.toBeDefined();
      await expectRejection(
        verify(BODY, await sign(BODY, SECRET, NOW - 11), SECRET, options),
        'timestamp_too_old',
      );
      await expectRejection(
        verify(BODY, await sign(BODY, SECRET, NOW + 11), SECRET, options),
        'timestamp_too_new',
      );
    });

    it('checks the timestamp before the signature, like the reference library', async () => {
      const headers = { ...(await sign(BODY, SECRET, NOW - 301)), 'webhook-signature': 'v1,AAAA' };
      await expectRejection(verify(BODY, headers), 'timestamp_too_old');
    });

    it('takes now as a Date, epoch milliseconds or a function', async () => {
      const headers = await sign();
      for (const now of [new Date(NOW_MS), NOW_MS + 999, () => NOW_MS, () => new Date(NOW_MS)]) {
        await expect(verify(BODY, headers, SECRET, { now })).resolves.toBeDefined();
      }
    });

    it.each([
      '1795000000.0',
      '-1795000000',
      '+1795000000',
      ' 1795000000',
      '1795000000 ',
      '1.795e9',
      '0x6afd6200',
      'soon',
      '１７９５０００００００',
    ])('rejects the timestamp %j with invalid_timestamp', async (timestamp) => {
      const headers = { ...(await sign()), 'webhook-timestamp': timestamp };
      await expectRejection(verify(BODY, headers), 'invalid_timestamp');
    });

    it('rejects an invalid tolerance or clock with a ConfigurationError, since they would pass any timestamp', async () => {
      const headers = await sign();
      await expect(verify(BODY, headers, SECRET, { now: NOW_MS, tolerance: -1 })).rejects.toThrow(
        ConfigurationError,
      );
      await expect(
        verify(BODY, headers, SECRET, { now: NOW_MS, tolerance: Number.NaN }),
      ).rejects.toThrow(ConfigurationError);
      await expect(verify(BODY, headers, SECRET, { now: new Date(Number.NaN) })).rejects.toThrow(
        ConfigurationError,
      );
    });
  });

  describe('headers', () => {
    it.each(['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const)(
      'rejects a delivery without %s, or with it empty, with missing_header',
      async (name) => {
        const headers: Record<string, string | string[]> = { ...(await sign()) };
        for (const absent of [undefined, '', []]) {
          const changed = { ...headers, [name]: absent };
          if (absent === undefined) delete changed[name];
          await expectRejection(verify(BODY, changed), 'missing_header');
        }
        const fetchHeaders = new Headers(headers as Record<string, string>);
        fetchHeaders.delete(name);
        await expectRejection(verify(BODY, fetchHeaders), 'missing_header');
      },
    );

    it('rejects missing or non-object headers with missing_header', async () => {
      for (const headers of [undefined, null, 'webhook-id: x', {}]) {
        await expectRejection(
          verify(BODY, headers as unknown as WebhookRequestHeaders),
          'missing_header',
        );
      }
    });

    it('accepts array values holding one entry, as some frameworks give them', async () => {
      const headers = await sign();
      const arrays = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]));
      await expect(verify(BODY, arrays)).resolves.toEqual(recognitionCreated);
    });

    it('tries every entry of a repeated webhook-signature header', async () => {
      const headers = await sign();
      const repeated = {
        ...headers,
        'webhook-signature': ['v1,AAAA', headers['webhook-signature']],
      };
      await expect(verify(BODY, repeated)).resolves.toEqual(recognitionCreated);
      const fetchHeaders = new Headers({ ...headers, 'webhook-signature': 'v1,AAAA' });
      fetchHeaders.append('webhook-signature', headers['webhook-signature']);
      await expect(verify(BODY, fetchHeaders)).resolves.toEqual(recognitionCreated);
    });

    it('merges a header given under several spellings of its name, as a repeat', async () => {
      const headers = await sign();
      const twice = { ...headers, 'Webhook-Signature': 'v2,AAAA' };
      await expect(verify(BODY, twice)).resolves.toEqual(recognitionCreated);
    });

    it('joins the spellings of a name in the order of the object, the lower-case one first or not', async () => {
      const { 'webhook-id': id, ...rest } = await signWebhook(BODY, SECRET, {
        id: 'evt_a, evt_b',
        timestamp: NOW,
      });
      expect(id).toBe('evt_a, evt_b');
      const upperFirst = { 'Webhook-Id': 'evt_a', ...rest, 'webhook-id': 'evt_b' };
      await expect(verify(BODY, upperFirst)).resolves.toEqual(recognitionCreated);
      const lowerFirst = { 'webhook-id': 'evt_a', ...rest, 'WEBHOOK-ID': 'evt_b' };
      await expect(verify(BODY, lowerFirst)).resolves.toEqual(recognitionCreated);
      const swapped = { 'webhook-id': 'evt_b', ...rest, 'Webhook-Id': 'evt_a' };
      await expectRejection(verify(BODY, swapped), 'invalid_signature');
    });

    it('treats repeated webhook-timestamp values as invalid_timestamp and repeated ids as a different id', async () => {
      const headers = await sign();
      const timestamp = headers['webhook-timestamp'];
      await expectRejection(
        verify(BODY, { ...headers, 'webhook-timestamp': [timestamp, timestamp] }),
        'invalid_timestamp',
      );
      await expectRejection(
        verify(BODY, { ...headers, 'webhook-id': [ID, ID] }),
        'invalid_signature',
      );
    });
  });

  describe('secrets', () => {
    it.each([
      ['without the whsec_ prefix', SECRET.slice('whsec_'.length)],
      ['with another prefix', SECRET.replace('whsec_', 'whsk_')],
      ['with nothing after the prefix', 'whsec_'],
      ['with base64 garbage', 'whsec_not base64!'],
      ['in base64url', 'whsec_-_-_'],
      ['with misplaced padding', 'whsec_AA=A'],
      ['of one base64 character', 'whsec_A'],
      ['empty', ''],
    ])('rejects a secret %s with invalid_secret', async (_case, secret) => {
      await expectRejection(verify(BODY, await sign(), secret), 'invalid_secret');
    });

    it('rejects an empty list, or a list holding a bad secret, with invalid_secret', async () => {
      await expectRejection(verify(BODY, await sign(), []), 'invalid_secret');
      await expectRejection(verify(BODY, await sign(), [SECRET, 'whsec_']), 'invalid_secret');
      await expectRejection(
        verify(BODY, await sign(), [SECRET, 42 as unknown as string]),
        'invalid_secret',
      );
    });

    it('reports a bad secret before looking at the delivery', async () => {
      await expectRejection(verify(BODY, {}, 'whsec_'), 'invalid_secret');
    });

    it('accepts a secret whose base64 has no padding', async () => {
      const unpadded = 'whsec_c2VjcmV0IGtleQ'; // "secret key"
      await expect(
        verify(BODY, await sign(BODY, `${unpadded}==`), unpadded),
      ).resolves.toBeDefined();
    });

    it('never puts the secret in an error message', async () => {
      const key = SECRET.slice('whsec_'.length);
      const attempts = [
        async () => verify(BODY, await sign(BODY, OTHER_SECRET)),
        async () => verify(BODY, {}),
        async () => verify(BODY, await sign(BODY, SECRET, NOW - 301)),
        async () => verify('nope', await sign('nope')),
        async () => verify(BODY, await sign(), `${SECRET}!`),
      ];
      for (const attempt of attempts) {
        const error = await attempt().catch((caught: unknown) => caught);
        expect(error).toBeInstanceOf(WebhookVerificationError);
        expect((error as Error).message).not.toContain(key.slice(0, 8));
      }
    });
  });
});

describe('verifyWebhook', () => {
  it('verifies with the fastest backend the runtime offers (node:crypto here)', async () => {
    const getBuiltinModule = vi.spyOn(process, 'getBuiltinModule');
    await expect(verifyWebhook(BODY, await sign(), SECRET, { now: NOW_MS })).resolves.toEqual(
      recognitionCreated,
    );
    await expectRejection(
      verifyWebhook(BODY, await sign(), OTHER_SECRET, { now: NOW_MS }),
      'invalid_signature',
    );
    // Chosen once: later calls reuse the backend (the spy sees at most the first lookup).
    expect(getBuiltinModule.mock.calls.length).toBeLessThanOrEqual(1);
  });

  it('rejects with an Error subclass named WebhookVerificationError carrying a reason', async () => {
    const error = await verifyWebhook(BODY, {}, SECRET).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({ name: 'WebhookVerificationError', reason: 'missing_header' });
  });
});

describe('the secret from the environment', () => {
  const now = { now: NOW_MS };
  /** The error a verification rejects with, or undefined when it resolves. */
  const errorOf = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: unknown) => error as WebhookVerificationError,
    );

  it(`verifies with ${ENV_WEBHOOK_SECRET} when no secret is passed`, async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    await expect(verifyWebhook(BODY, await sign(), undefined, now)).resolves.toEqual(
      recognitionCreated,
    );
    const signedWithOther = await sign(BODY, OTHER_SECRET);
    await expectRejection(
      verifyWebhook(BODY, signedWithOther, undefined, now),
      'invalid_signature',
    );
  });

  it('takes null for no secret, as every option of the SDK does', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, SECRET);
    const secret = null as unknown as undefined;
    await expect(verifyWebhook(BODY, await sign(), secret, now)).resolves.toBeDefined();
  });

  it('uses a secret that is passed, not the environment', async () => {
    vi.stubEnv(ENV_WEBHOOK_SECRET, OTHER_SECRET);
    await expect(verifyWebhook(BODY, await sign(), SECRET, now)).resolves.toBeDefined();
    await expectRejection(
      verifyWebhook(BODY, await sign(BODY, OTHER_SECRET), SECRET, now),
      'invalid_signature',
    );
  });

  it('with neither, rejects with invalid_secret and a message that names the variable', async () => {
    for (const value of [undefined, '']) {
      vi.stubEnv(ENV_WEBHOOK_SECRET, value);
      const error = await errorOf(verifyWebhook(BODY, await sign(), undefined, now));
      expect(error).toBeInstanceOf(WebhookVerificationError);
      expect(error?.reason).toBe('invalid_secret');
      expect(error?.message).toContain(ENV_WEBHOOK_SECRET);
    }
  });

  it('names the variable, never its value, when it holds no valid secret', async () => {
    const malformed = `${SECRET}!`;
    vi.stubEnv(ENV_WEBHOOK_SECRET, malformed);
    const error = await errorOf(verifyWebhook(BODY, await sign(), undefined, now));
    expect(error?.reason).toBe('invalid_secret');
    expect(error?.message).toContain(ENV_WEBHOOK_SECRET);
    expect(error?.message).not.toContain(SECRET.slice('whsec_'.length, 20));
  });

  it.each([
    ['a runtime without process (browsers, Workers)', undefined],
    [
      'a process.env that throws on access (Deno without --allow-env)',
      {
        get env() {
          throw new Error('Requires env access');
        },
      },
    ],
  ])('in %s, counts as no secret: invalid_secret', async (_case, process) => {
    const headers = await sign();
    vi.stubGlobal('process', process);
    // The secret is read before the first await: restore the real process right after the call.
    const pending = verifyWith(webCrypto, BODY, headers, undefined, now);
    vi.unstubAllGlobals();
    await expectRejection(pending, 'invalid_secret');
  });
});

describe('decoded secrets in verification', () => {
  const backend = nodeCrypto()!;
  const secretFor = (label: string) => `whsec_${btoa(`cache test ${label}`)}`;
  /** Verifies a delivery signed with `secret`, and counts how often its base64 was decoded. */
  async function decodesWhileVerifying(secret: string): Promise<number> {
    const headers = await signWebhook(BODY, secret, { id: 'evt_cache', timestamp: NOW });
    const atob = vi.spyOn(globalThis, 'atob');
    await expect(verifyWith(backend, BODY, headers, secret, { now: NOW_MS })).resolves.toEqual(
      JSON.parse(BODY),
    );
    const decodes = atob.mock.calls.filter(([text]) => `whsec_${text}` === secret).length;
    atob.mockRestore();
    return decodes;
  }

  it('decodes a secret once, and again only after other secrets pushed it out of the cache', async () => {
    const secret = secretFor('kept');
    expect(await decodesWhileVerifying(secret)).toBe(1);
    expect(await decodesWhileVerifying(secret)).toBe(0);
    for (let n = 0; n < MAX_CACHED_SECRETS; n++) await decodesWhileVerifying(secretFor(`${n}`));
    expect(await decodesWhileVerifying(secret)).toBe(1);
  });

  it('does not keep malformed secrets: each attempt fails with invalid_secret', async () => {
    const headers = await signWebhook(BODY, secretFor('valid'), { timestamp: NOW });
    for (let n = 0; n < 3; n++) {
      await expectRejection(
        verifyWith(backend, BODY, headers, 'whsec_not base64!', { now: NOW_MS }),
        'invalid_secret',
      );
    }
  });
});

describe('parseSignatures', () => {
  const bytes = (...values: number[]) => Uint8Array.from(values);

  it('decodes every v1 entry of a space-separated header', () => {
    expect(parseSignatures('v1,AQI= v1,AwQ=')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('reads entries of a repeated header joined with ", "', () => {
    expect(parseSignatures('v1,AQI=, v1,AwQ=')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('skips other versions, look-alikes and entries that are not base64', () => {
    expect(parseSignatures('v2,AQI= v1a,AQI= av1,AQI= V1,AQI= v1,A*I= v1, v1,AwQ=')).toEqual([
      bytes(3, 4),
    ]);
  });

  it('tolerates extra whitespace around entries', () => {
    expect(parseSignatures('  v1,AQI=\t\tv1,AwQ=  ')).toEqual([bytes(1, 2), bytes(3, 4)]);
  });

  it('returns nothing for an empty or unrelated header', () => {
    expect(parseSignatures('')).toEqual([]);
    expect(parseSignatures('sha256=abcdef')).toEqual([]);
  });
});
