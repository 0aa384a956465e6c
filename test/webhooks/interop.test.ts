import { Webhook } from 'standardwebhooks';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { generateWebhookSecret, signWebhook } from '../../src/testing/webhook-signer.js';
import { verifyWebhook } from '../../src/webhooks/index.js';
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

// The reference library reads the real clock, so both sides run on a frozen Date.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: NOW_MS });
});
afterEach(() => {
  vi.useRealTimers();
});

const reference = new Webhook(SECRET);
const unicodeBody = JSON.stringify({ ...recognitionCreated, data: { message: 'Merci ✨ 谢谢' } });

describe('verifyWebhook accepts what the standardwebhooks reference library signs', () => {
  it.each([
    ['an ASCII body', BODY.replace('—', '-').replace(' très bien 👏', '')],
    ['a body with non-ASCII text', unicodeBody],
  ])('for %s, as a string and as a Buffer', async (_case, body) => {
    const headers = {
      'webhook-id': ID,
      'webhook-timestamp': String(NOW),
      'webhook-signature': reference.sign(ID, new Date(NOW_MS), body),
    };
    await expect(verifyWebhook(body, headers, SECRET)).resolves.toEqual(JSON.parse(body));
    await expect(verifyWebhook(Buffer.from(body), headers, SECRET)).resolves.toEqual(
      JSON.parse(body),
    );
  });

  it('at both edges of the shared five-minute tolerance', async () => {
    for (const timestamp of [NOW - 300, NOW + 300]) {
      const headers = {
        'webhook-id': ID,
        'webhook-timestamp': String(timestamp),
        'webhook-signature': reference.sign(ID, new Date(timestamp * 1000), BODY),
      };
      expect(reference.verify(BODY, headers)).toEqual(recognitionCreated);
      await expect(verifyWebhook(BODY, headers, SECRET)).resolves.toEqual(recognitionCreated);
    }
  });
});

describe('the standardwebhooks reference library accepts what signWebhook makes', () => {
  it('for a string body, a byte body and a body with non-ASCII text', async () => {
    for (const body of [BODY, new TextEncoder().encode(BODY), unicodeBody]) {
      const text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      expect(reference.verify(text, { ...(await sign(body)) })).toEqual(JSON.parse(text));
    }
  });

  it('with default id and timestamp', async () => {
    expect(reference.verify(BODY, { ...(await signWebhook(BODY, SECRET)) })).toEqual(
      recognitionCreated,
    );
  });

  it('with one entry per secret during a rotation, each secret on its own', async () => {
    const headers = { ...(await sign(BODY, [OTHER_SECRET, SECRET])) };
    expect(reference.verify(BODY, headers)).toEqual(recognitionCreated);
    expect(new Webhook(OTHER_SECRET).verify(BODY, headers)).toEqual(recognitionCreated);
  });

  it('with secrets made by generateWebhookSecret', async () => {
    const secret = generateWebhookSecret();
    const headers = { ...(await signWebhook(BODY, secret)) };
    expect(new Webhook(secret).verify(BODY, headers)).toEqual(recognitionCreated);
  });
});

interface Delivery {
  body: string;
  headers: Record<string, string>;
}
type Tamper = (delivery: Delivery) => Delivery | Promise<Delivery>;

const withHeader =
  (name: string, value: (current: string) => string): Tamper =>
  ({ body, headers }) => ({ body, headers: { ...headers, [name]: value(headers[name]!) } });
const withoutHeader =
  (name: string): Tamper =>
  ({ body, headers: { [name]: _, ...rest } }) => ({ body, headers: rest });
const resignedWith =
  (secret: string, timestamp: number): Tamper =>
  async ({ body }) => ({ body, headers: { ...(await sign(body, secret, timestamp)) } });
const flipCharacter = (text: string, at: number) =>
  `${text.slice(0, at)}${text[at] === 'A' ? 'B' : 'A'}${text.slice(at + 1)}`;

const tampers: [string, string, Tamper][] = [
  ['a changed body', 'invalid_signature', (d) => ({ ...d, body: d.body.replace('10', '11') })],
  ['a changed webhook-id', 'invalid_signature', withHeader('webhook-id', () => 'evt_x')],
  [
    'a changed webhook-timestamp within tolerance',
    'invalid_signature',
    withHeader('webhook-timestamp', () => String(NOW - 1)),
  ],
  [
    'a signature with one character changed',
    'invalid_signature',
    withHeader('webhook-signature', (value) => flipCharacter(value, 5)),
  ],
  [
    'the signature under version v2',
    'invalid_signature',
    withHeader('webhook-signature', (value) => value.replace('v1,', 'v2,')),
  ],
  ['a signature by another secret', 'invalid_signature', resignedWith(OTHER_SECRET, NOW)],
  ['a timestamp 301 s old', 'timestamp_too_old', resignedWith(SECRET, NOW - 301)],
  ['a timestamp 301 s ahead', 'timestamp_too_new', resignedWith(SECRET, NOW + 301)],
  ['no webhook-signature header', 'missing_header', withoutHeader('webhook-signature')],
  ['no webhook-id header', 'missing_header', withoutHeader('webhook-id')],
  ['no webhook-timestamp header', 'missing_header', withoutHeader('webhook-timestamp')],
];

describe('each tampered delivery is rejected by both libraries', () => {
  it.each(tampers)('%s (reason %s)', async (_case, reason, tamper) => {
    const { body, headers } = await tamper({ body: BODY, headers: { ...(await sign()) } });
    expect(() => reference.verify(body, headers)).toThrow();
    await expectRejection(verifyWebhook(body, headers, SECRET), reason);
  });
});
