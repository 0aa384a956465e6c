/**
 * doctor webhook's diagnosis of a captured delivery: the scheme its headers follow, the
 * timestamp's skew, the secret's form, the signature against the body as given and as a framework
 * re-serialized it. The secret, the signature and the body never appear in the report.
 */
import { generateWebhookSecret, signWebhook } from '@employee-recognition/sdk/testing';
import {
  type CapturedDelivery,
  diagnoseDelivery,
  readCapturedDelivery,
  renderJson,
  renderMarkdown,
  renderTerminal,
} from '@employee-recognition/sdk/doctor';
import { Webhook as Svix } from 'svix';
import { describe, expect, it } from 'vitest';
import { ConfigurationError } from '../../src/core/config.js';

const NOW = Date.parse('2026-11-21T09:30:00Z');
const now = () => NOW;
const secret = generateWebhookSecret();
// Non-ASCII and spaces, as a service written in another language may send.
const body = '{"type": "recognition.created", "data": {"message": "Merci, Zoë!", "points": 10}}';

async function delivery(payload = body, at = NOW): Promise<CapturedDelivery> {
  const headers = await signWebhook(payload, secret, { id: 'msg_1', timestamp: new Date(at) });
  return { headers: new Headers(headers as unknown as Record<string, string>), body: payload };
}

const statusOf = (report: Awaited<ReturnType<typeof diagnoseDelivery>>) =>
  Object.fromEntries(report.checks.map((check) => [check.id, check.status]));

describe('diagnoseDelivery', () => {
  it('a delivery as sent: Standard Webhooks, in time, a whsec_ secret, the signature matching', async () => {
    const report = await diagnoseDelivery(await delivery(), { secret, now });
    expect(statusOf(report)).toEqual({
      scheme: 'ok',
      timestamp: 'ok',
      secret: 'ok',
      signature: 'ok',
    });
    expect(report.checks[0]!.details).toEqual({ scheme: 'standard-webhooks', missingHeaders: [] });
    expect(report.ok).toBe(true);
  });

  it('svix-* headers from the svix library: the same scheme under its names, checked alike', async () => {
    const id = 'msg_svix';
    const signature = new Svix(secret).sign(id, new Date(NOW), body);
    const headers = new Headers({
      'svix-id': id,
      'svix-timestamp': String(NOW / 1000),
      'svix-signature': signature,
    });
    const report = await diagnoseDelivery({ headers, body }, { secret, now });
    expect(statusOf(report)).toEqual({
      scheme: 'warn',
      timestamp: 'ok',
      secret: 'ok',
      signature: 'ok',
    });
    expect(report.checks[0]!.details).toMatchObject({ scheme: 'svix' });
  });

  it.each([
    ['stripe', { 'stripe-signature': 't=1,v1=abc' }],
    ['github', { 'x-hub-signature-256': 'sha256=abc' }],
    ['slack', { 'x-slack-signature': 'v0=abc', 'x-slack-request-timestamp': '1' }],
  ])('another scheme (%s) is named, and fails', async (scheme, headers) => {
    const report = await diagnoseDelivery({ headers: new Headers(headers), body }, { secret, now });
    expect(report.checks[0]).toMatchObject({ status: 'fail', details: { scheme } });
    expect(statusOf(report).signature).toBe('skip');
  });

  it('no signature header at all fails the scheme', async () => {
    const report = await diagnoseDelivery({ headers: new Headers(), body }, { now });
    expect(report.checks[0]).toMatchObject({ status: 'fail', details: { scheme: 'none' } });
  });

  it('the timestamp 6 minutes old: warns, naming timestamp_too_old, and still checks the signature', async () => {
    const report = await diagnoseDelivery(await delivery(body, NOW - 360_000), { secret, now });
    const timestamp = report.checks.find((check) => check.id === 'timestamp')!;
    expect(timestamp).toMatchObject({ status: 'warn', details: { skewSeconds: 360 } });
    expect(timestamp.summary).toContain('timestamp_too_old');
    expect(statusOf(report).signature).toBe('ok');
  });

  it('a timestamp 416 s in the future: fails, the sender’s clock ahead, timestamp_too_new', async () => {
    const report = await diagnoseDelivery(await delivery(body, NOW + 416_000), { secret, now });
    const timestamp = report.checks.find((check) => check.id === 'timestamp')!;
    expect(timestamp).toMatchObject({ status: 'fail', details: { skewSeconds: -416 } });
    expect(timestamp.summary).toContain("the sender's clock is ahead");
    expect(timestamp.summary).toContain('timestamp_too_new');
    expect(report.ok).toBe(false);
    // Within the tolerance, ahead is fine.
    const near = await diagnoseDelivery(await delivery(body, NOW + 200_000), { secret, now });
    expect(statusOf(near).timestamp).toBe('ok');
  });

  it.each([
    [
      'base64 without the whsec_ prefix',
      secret.slice('whsec_'.length),
      'base64-without-prefix',
      'ok',
    ],
    ['whsec_ and no base64', 'whsec_***not base64***', 'invalid', 'skip'],
    ['something else', 'hunter2-password', 'invalid', 'skip'],
  ])('a secret of another form (%s) fails, named', async (_, given, form, signature) => {
    const report = await diagnoseDelivery(await delivery(), { secret: given, now });
    expect(report.checks.find((check) => check.id === 'secret')).toMatchObject({
      status: 'fail',
      details: { form },
    });
    expect(statusOf(report).signature).toBe(signature);
  });

  it('another secret: the signature matches no form of the body', async () => {
    const report = await diagnoseDelivery(await delivery(), {
      secret: generateWebhookSecret(),
      now,
    });
    const check = report.checks.find((each) => each.id === 'signature')!;
    expect(check).toMatchObject({
      status: 'fail',
      details: { matches: false, matchesAfter: null },
    });
    expect(check.summary).toContain('the secret is not the one');
  });

  it.each([
    [
      're-stringified JSON',
      (text: string) => JSON.stringify(JSON.parse(text)),
      /re-stringified JSON \(signed with spaces after , and :\)/,
    ],
    [
      'indented JSON',
      (text: string) => JSON.stringify(JSON.parse(text), null, 2),
      /re-stringified JSON \(signed with spaces after , and :\)/,
    ],
    ['a trailing newline', (text: string) => `${text}\n`, /a trailing newline added/],
    ['a BOM', (text: string) => `\uFEFF${text}`, /a byte-order mark \(BOM\) added/],
  ])('the body with %s: the re-serialization is named as the cause', async (_, change, named) => {
    const sent = await delivery();
    const report = await diagnoseDelivery(
      { headers: sent.headers, body: change(body) },
      { secret, now },
    );
    const check = report.checks.find((each) => each.id === 'signature')!;
    expect(check.status).toBe('fail');
    expect(String(check.details.matchesAfter)).toMatch(named);
    expect(check.fix).toContain('express.raw');
  });

  it('a body signed compact and stripped of its trailing newline by a capture tool', async () => {
    const compact = JSON.stringify({ type: 'user.created', data: { name: 'Ana' } });
    const sent = await delivery(`${compact}\n`);
    const report = await diagnoseDelivery(
      { headers: sent.headers, body: compact },
      { secret, now },
    );
    expect(report.checks.find((each) => each.id === 'signature')!.details.matchesAfter).toBe(
      'a trailing newline removed',
    );
  });

  it('never shows the secret, a signature or the body, in any rendering', async () => {
    const sent = await delivery();
    for (const given of [body, `${body}\n`, JSON.stringify(JSON.parse(body))]) {
      const report = await diagnoseDelivery(
        { headers: sent.headers, body: given },
        { secret, now },
      );
      const signature = sent.headers.get('webhook-signature')!.split(',')[1]!;
      for (const text of [renderTerminal(report), renderJson(report), renderMarkdown(report)]) {
        for (const hidden of [secret, secret.slice(6), signature, 'Zoë', 'Merci', '"points": 10']) {
          expect(text).not.toContain(hidden);
        }
      }
    }
  });
});

describe('readCapturedDelivery', () => {
  it('reads a raw HTTP request, its body cut at Content-Length', () => {
    const raw = `POST /webhooks HTTP/1.1\r\nHost: app.example\r\nwebhook-id: msg_1\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}\n`;
    const read = readCapturedDelivery(raw);
    expect(read.headers.get('webhook-id')).toBe('msg_1');
    expect(read.body).toBe(body);
  });

  it('reads JSON with headers and a body string, and a HAR request', () => {
    expect(
      readCapturedDelivery(JSON.stringify({ headers: { 'Webhook-Id': 'msg_1' }, body })).body,
    ).toBe(body);
    const har = {
      request: { headers: [{ name: 'webhook-id', value: 'msg_2' }], postData: { text: body } },
    };
    const read = readCapturedDelivery(JSON.stringify(har));
    expect([read.headers.get('webhook-id'), read.body]).toEqual(['msg_2', body]);
  });

  it('refuses what is neither, naming the forms it reads', () => {
    expect(() => readCapturedDelivery('hello')).toThrow(ConfigurationError);
    expect(() => readCapturedDelivery('{"headers": {}}')).toThrow(/headers` and `body/);
  });
});
