/**
 * examples/webhooks/deploy.ts against the kit's mock over real HTTP: the first deploy creates the
 * subscription and writes its secret to a 0600 file, the next writes nothing.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@employee-recognition/sdk';
import { type MockServer, startMockServer } from '@employee-recognition/sdk/testing';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { deployWebhooks } from '../../examples/webhooks/deploy.js';

let server: MockServer;
let dir: string;
beforeEach(async () => {
  server = await startMockServer({ recognitions: 5 });
  dir = mkdtempSync(join(tmpdir(), 'deploy-example-'));
  vi.spyOn(console, 'log').mockImplementation(() => undefined);
});
afterEach(async () => {
  rmSync(dir, { recursive: true, force: true });
  await server.close();
});

it('creates the subscription on the first deploy, with its secret in a 0600 file, and writes nothing on the next', async () => {
  const client = new Client({ apiKey: server.api.testKey, baseUrl: server.url });
  const url = 'https://app.example/webhooks';
  const secretFile = join(dir, 'secret');
  const first = await deployWebhooks(client, url, secretFile);
  const [webhook, ...others] = server.api.store.webhooks.all();
  expect(others).toEqual([]);
  expect(webhook).toMatchObject({ url, description: 'Recognition app', id: first.webhook?.id });
  expect(readFileSync(secretFile, 'utf8')).toBe(`${webhook!.secret}\n`);
  expect(statSync(secretFile).mode & 0o777).toBe(0o600);

  const writes = server.api.requests.length;
  const second = await deployWebhooks(client, url, join(dir, 'unused'));
  expect(second.done).toEqual([]);
  expect(server.api.requests.slice(writes).map(({ method }) => method)).toEqual(['GET']);
  expect(console.log).toHaveBeenLastCalledWith(
    expect.stringMatching(/^webhooks: in step \(recognition\.created/),
  );
});
