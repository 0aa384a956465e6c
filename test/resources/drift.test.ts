/**
 * A service that has drifted from the SDK's assumptions, on a real HTTP server: records lack an
 * assumed field, carry one of another type, an enumeration value this SDK does not know and a
 * field it does not declare. What each `validateResponses` mode makes of it, for reads and writes.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Client, InvalidResponseError } from '../../src/index.js';
import { startTestServer, type TestServer } from '../support/http-server.js';
import { records, TEST_API_KEY, UUID, warnLogger } from './support.js';

const { created_at: _createdAt, ...withoutCreatedAt } = records.recognition();
/** A recognition as the drifted service sends it. */
const drifted = { ...withoutCreatedAt, points: '10', mood: 'grateful' };
const driftedUser = records.user({ role: 'auditor' });

/** The drifted service's answer to each operation the suite calls. */
function answer(request: IncomingMessage, response: ServerResponse) {
  const path = new URL(request.url ?? '/', 'http://x').pathname;
  const reply = (status: number, body: unknown) => {
    response.writeHead(status, { 'content-type': 'application/json', 'x-request-id': 'req_drift' });
    response.end(JSON.stringify(body));
  };
  if (request.method === 'POST') return reply(201, { data: drifted });
  if (path === '/v1/recognitions') {
    const second = request.url?.includes('cursor=');
    return reply(200, {
      data: [drifted, drifted],
      pagination: { page: 1, total_pages: 1, next_cursor: second ? null : 'c2' },
    });
  }
  if (path.startsWith('/v1/users/')) return reply(200, { data: driftedUser });
  if (path === '/v1/teams') return reply(200, { teams: [] });
  return reply(200, { data: drifted });
}

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(answer);
});
afterAll(() => server.close());

let log: ReturnType<typeof warnLogger>;
beforeEach(() => {
  log = warnLogger();
});

function client(validateResponses?: 'warn' | 'strict' | 'off'): Client {
  return new Client({
    apiKey: TEST_API_KEY,
    baseUrl: server.url,
    maxRetries: 0,
    logger: log.logger,
    ...(validateResponses && { validateResponses }),
  });
}

const create = { recipient_id: UUID.bob, message: 'Thanks!' };

describe("validateResponses 'warn' (the default)", () => {
  it('returns drifted records as received and warns once per operation and field, across pages and calls', async () => {
    const tolerant = client();
    const all = [];
    for await (const recognition of tolerant.recognitions.list()) all.push(recognition);
    await tolerant.recognitions.get(UUID.record);
    await tolerant.recognitions.get(UUID.alice);

    expect(all).toEqual([drifted, drifted, drifted, drifted]);
    expect(log.warnings).toEqual([
      expect.stringContaining(
        'GET /v1/recognitions: data.0.points is a string, but the SDK assumes it must be a number (contract §3). The record is returned as received.',
      ),
      expect.stringContaining('GET /v1/recognitions: data.0.created_at is missing'),
      expect.stringContaining(`GET /v1/recognitions/${UUID.record}: data.points is a string`),
      expect.stringContaining(`GET /v1/recognitions/${UUID.record}: data.created_at is missing`),
    ]);
  });

  it('notes an enumeration value this SDK does not know, and returns it', async () => {
    const { data } = await client().users.get(UUID.alice);
    expect(data.role).toBe('auditor');
    expect(log.warnings).toEqual([expect.stringContaining('data.role is "auditor"')]);
  });
});

describe("validateResponses 'strict'", () => {
  it('fails a drifted read with an InvalidResponseError naming each field', async () => {
    const error = await client('strict')
      .recognitions.get(UUID.record)
      .then(
        () => expect.fail('expected an InvalidResponseError'),
        (reason: unknown) => reason,
      );
    expect(error).toBeInstanceOf(InvalidResponseError);
    expect((error as InvalidResponseError).issues).toEqual([
      { path: 'data.points', message: 'must be a number' },
      { path: 'data.created_at', message: 'is required' },
    ]);
    expect(log.warnings).toEqual([]);
  });
});

describe("validateResponses 'off'", () => {
  it('returns drifted records as received and logs nothing', async () => {
    const quiet = client('off');
    await expect(quiet.recognitions.get(UUID.record)).resolves.toEqual({ data: drifted });
    await quiet.users.get(UUID.alice);
    expect(log.warnings).toEqual([]);
  });
});

describe.each(['warn', 'strict', 'off'] as const)("validateResponses '%s'", (mode) => {
  it('a create whose answer lacks an assumed field resolves, the difference logged once unless off', async () => {
    const writer = client(mode);
    await expect(writer.recognitions.create(create)).resolves.toEqual({ data: drifted });
    await writer.recognitions.create(create);
    if (mode === 'off') {
      expect(log.warnings).toEqual([]);
    } else {
      expect(log.warnings).toEqual([
        expect.stringContaining(
          'POST /v1/recognitions: data.points is a string, but the SDK assumes it must be a number (contract §3). The write succeeded',
        ),
        expect.stringContaining('POST /v1/recognitions: data.created_at is missing'),
      ]);
    }
  });

  it('a read without the envelope the SDK needs fails with an InvalidResponseError', async () => {
    await expect(client(mode).teams.list()).rejects.toThrow(
      /^Unexpected response to GET \/v1\/teams \(status 200\): data is required; pagination is required$/,
    );
  });
});
