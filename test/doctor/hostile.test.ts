/**
 * diagnose() against a hand-written server that answers with everything a hostile or broken
 * service may send: records that are not objects, field names with terminal escapes, thousands
 * of fields and webhooks, a Date no clock has, an echoed key. The run ends with a report (never
 * a raw error), bounded, and no rendering holds an escape sequence or the key.
 */
import { Client } from '@employee-recognition/sdk';
import { diagnose, renderMarkdown, renderTerminal } from '@employee-recognition/sdk/doctor';
import { afterEach, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/http-server.js';

const KEY = `rk_live_${'h'.repeat(24)}`;
let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const ESC = '\u001b[31m';

it('ends with a bounded report, escapes what the service wrote, and never shows the key', async () => {
  const many = Object.fromEntries(
    Array.from({ length: 5000 }, (_, index) => [`${ESC}field${index}\r\n${KEY}`, index]),
  );
  server = await startTestServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    response.setHeader('date', 'Tue, 99 Foo 2026 99:99:99 GMT');
    response.setHeader('x-ratelimit-limit', '100');
    response.setHeader('x-ratelimit-remaining', '90');
    response.setHeader('x-ratelimit-reset', 'NaN');
    response.setHeader('x-echo', KEY);
    response.setHeader('deprecation', '@1700000000');
    response.setHeader('link', `<https://evil.example/${KEY}?${KEY}>; rel="deprecation"`);
    const path = request.url ?? '';
    if (path.startsWith('/v1/users/')) {
      response.statusCode = 404;
      response.end(`<html><title>${ESC}nope ${KEY}</title></html>`);
    } else if (path.startsWith('/v1/webhooks')) {
      const hooks = Array.from({ length: 3000 }, (_, index) => ({
        id: `${ESC}${index}`,
        url: index % 2 ? `http://evil.example/${ESC}?token=${KEY}` : 42,
        enabled: false,
        events: [`${ESC}made.up`],
      }));
      response.end(JSON.stringify({ data: [null, 1, 'x', ...hooks] }));
    } else {
      response.end(JSON.stringify({ data: [{ ...many }], pagination: many }));
    }
  });
  const client = new Client({ apiKey: KEY, baseUrl: server.url, logLevel: 'off' });
  const report = await diagnose(client, { credential: KEY, env: {} });
  const records = report.checks.find((check) => check.id === 'records')!;
  expect(records.status).toBe('fail');
  expect((records.details.newFields as unknown[]).length).toBeLessThanOrEqual(7 * 100);
  const webhooks = report.checks.find((check) => check.id === 'webhooks')!;
  expect(webhooks.status).toBe('fail');
  expect((webhooks.details.webhooks as unknown[]).length).toBe(50);
  expect(webhooks.summary.length).toBeLessThan(2000);
  expect(report.checks.find((check) => check.id === 'clock')!.status).toBe('skip');
  for (const text of [renderTerminal(report), renderMarkdown(report), JSON.stringify(report)]) {
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\r');
    expect(text).not.toContain(KEY);
  }
  expect(renderTerminal(report).length).toBeLessThan(20_000);
});
