import { afterAll, beforeAll, expect, it } from 'vitest';
import { quickstart } from '../../examples/quickstart.js';
import { Client } from '../../src/index.js';
import { type MockServer, startMockServer } from '../../src/testing/index.js';

let server: MockServer;
beforeAll(async () => {
  server = await startMockServer({ seed: 7, referenceDate: new Date() });
});
afterAll(() => server.close());

it('runs the quickstart against the mock server over HTTP: lists, pages, creates, catches', async () => {
  const lines: string[] = [];
  const recognitionsBefore = server.api.store.recognitions.all().length;
  await quickstart(new Client({ baseUrl: server.url, apiKey: server.api.testKey }), (line) =>
    lines.push(line),
  );
  const output = lines.join('\n');
  expect(output).toMatch(/page 1 of \d+/);
  expect(output).toMatch(/\d+ recognitions, \d+ points, read in \d+ pages/);
  expect(output).toMatch(/created [0-9a-f-]{36}: .+ → .+ \(\+25\)/);
  expect(output).toContain('NotFoundError: status 404, code not_found');
  expect(output).toContain('recipient_id: must be a UUID');
  expect(server.api.store.recognitions.all()).toHaveLength(recognitionsBefore + 1);
});
