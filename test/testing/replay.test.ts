import { Client, type EmployeeRecognitionError } from '@employee-recognition/sdk';
import { createRecorder, type Har, startMockServer } from '@employee-recognition/sdk/testing';
import { fromRecording } from '@employee-recognition/sdk/testing/msw';
import { fromTraffic } from '@mswjs/source/traffic';
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_KEY, recordSession, replayTarget, runSession } from './recording.js';

let recorded: Awaited<ReturnType<typeof recordSession>>;
let har: Har;

beforeAll(async () => {
  recorded = await recordSession();
  // As a test reads it from a file.
  har = JSON.parse(JSON.stringify(recorded.har)) as Har;
});

// What a replaying test calls: the ids of the records and the recorded pseudonyms.
const target = (baseUrl: string) => replayTarget(baseUrl, recorded.clientId);

/** One answer as a client saw it: which request, its status, its body as sent. */
interface Answer {
  request: string;
  status: number;
  body: string;
}

/** A fetch that notes every answer it passes on, so a session's answers compare with a HAR's. */
function noting(answers: Answer[]): typeof globalThis.fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    const response = await globalThis.fetch(request.clone());
    const url = new URL(request.url);
    answers.push({
      request: `${request.method} ${url.pathname}${url.search}`,
      status: response.status,
      body: await response.clone().text(),
    });
    return response;
  };
}

/**
 * What the recording holds, entry by entry, as a replay at `origin` must answer it: the recorded
 * origin in a body (the issuer in OAuth metadata) becomes the replaying one.
 */
function recordedAnswers(origin: string): Answer[] {
  return har.log.entries.map((entry) => {
    const url = new URL(entry.request.url);
    return {
      request: `${entry.request.method} ${url.pathname}${url.search}`,
      status: entry.response.status,
      body: (entry.response.content.text ?? '').split(recorded.url).join(origin),
    };
  });
}

async function unrecorded(baseUrl: string) {
  const client = new Client({ baseUrl, apiKey: FAKE_KEY, maxRetries: 0 });
  return client.users.list({ limit: 7 }).then(
    () => undefined,
    (error: unknown) => error as EmployeeRecognitionError & { status: number; message: string },
  );
}

describe('a recording replayed', () => {
  describe('through MSW: fromRecording()', () => {
    const msw = setupServer();
    beforeAll(() => msw.listen({ onUnhandledRequest: 'error' }));
    afterAll(() => msw.close());

    it('answers the same session with the recorded answers, without a network', async () => {
      msw.resetHandlers(...fromRecording(har));
      const answers: Answer[] = [];
      const results = await runSession({ ...target(recorded.url), fetch: noting(answers) });
      expect(answers).toEqual(recordedAnswers(recorded.url));
      expect(results).toHaveLength(recorded.results.length);
      // Ids are not personal: the records are the recorded ones.
      const ids = (results: unknown[]) => (results[0] as { id: string }[]).map((user) => user.id);
      expect(ids(results)).toEqual(ids(recorded.results));
    });

    it('answers an unrecorded request with a 501 naming the nearest recorded one', async () => {
      msw.resetHandlers(...fromRecording(har));
      const error = await unrecorded(recorded.url);
      expect(error?.status).toBe(501);
      expect(error?.message).toContain(
        'No recorded request matches GET /v1/users?limit=7. The nearest, entry 0 (GET /v1/users?limit=100), differs: query limit was "100", not "7".',
      );
    });

    it('gives files @mswjs/source reads too: fromTraffic() replays a recorded GET', async () => {
      msw.resetHandlers(...fromTraffic(har as never));
      const response = await fetch(`${recorded.url}/v1/teams?limit=2`);
      expect(response.status).toBe(200);
      expect((await response.json()).data).toEqual(recorded.results.at(-1));
    });
  });

  describe('through startMockServer({ replay })', () => {
    it('answers the same session with the recorded answers, at its own origin', async () => {
      const server = await startMockServer({ replay: har });
      const answers: Answer[] = [];
      try {
        const results = await runSession({ ...target(server.url), fetch: noting(answers) });
        expect(results).toHaveLength(recorded.results.length);
      } finally {
        await server.close();
      }
      expect(answers).toEqual(recordedAnswers(server.url));
    });

    it('answers an unrecorded request with the same 501', async () => {
      const server = await startMockServer({ replay: har });
      try {
        const error = await unrecorded(server.url);
        expect(error?.status).toBe(501);
        expect(error?.message).toContain(
          'No recorded request matches GET /v1/users?limit=7. The nearest, entry 0 (GET /v1/users?limit=100), differs: query limit was "100", not "7".',
        );
      } finally {
        await server.close();
      }
    });

    it("with onUnrecorded: 'mock', lets the stateful mock answer what was not recorded", async () => {
      const server = await startMockServer({ replay: har, onUnrecorded: 'mock' });
      try {
        const client = new Client({ baseUrl: server.url, apiKey: server.api.testKey });
        expect((await client.users.list({ limit: 7 })).data).toHaveLength(7);
        // A recorded request still gets its recorded answer.
        const recordedTeams = await client.teams.list({ limit: 2 });
        expect(recordedTeams.data).toEqual(recorded.results.at(-1));
      } finally {
        await server.close();
      }
    });
  });

  describe('matching', () => {
    it('matches the body: another recipient names the field that differs', async () => {
      const server = await startMockServer({ replay: har });
      try {
        const client = new Client({ baseUrl: server.url, apiKey: FAKE_KEY, maxRetries: 0 });
        const error = await client.recognitions
          .create({
            recipient_id: '00000000-0000-4000-8000-000000000000',
            message: 'Anything: the message was redacted',
            points: 10,
          })
          .then(
            () => new Error('answered'),
            (caught: unknown) => caught as Error,
          );
        expect(error.message).toMatch(
          /The nearest, entry 4 \(POST \/v1\/recognitions\), differs: body recipient_id was "[0-9a-f-]{36}", not "00000000-0000-4000-8000-000/,
        );
      } finally {
        await server.close();
      }
    });

    it('answers repeats in the recorded order, then the last one again', async () => {
      const live = await startMockServer({ seed: 41 });
      const recorder = createRecorder();
      const client = new Client({
        baseUrl: live.url,
        apiKey: live.api.testKey,
        fetch: recorder.fetch,
      });
      await client.webhooks.list();
      await client.webhooks.create({ url: 'https://hooks.example.com/a', events: ['*'] });
      await client.webhooks.list();
      await recorder.close();
      await live.close();
      const server = await startMockServer({ replay: recorder.har() });
      try {
        const replaying = new Client({ baseUrl: server.url, apiKey: FAKE_KEY });
        const counts = [];
        for (let i = 0; i < 3; i++) counts.push((await replaying.webhooks.list()).data.length);
        expect(counts).toEqual([0, 1, 1]);
      } finally {
        await server.close();
      }
    });

    it('moves Date and X-RateLimit-Reset by the time since the recording; Retry-After stays', async () => {
      const entry = har.log.entries[0]!;
      const started = Date.parse(entry.startedDateTime);
      const header = (name: string) =>
        entry.response.headers.find((each) => each.name === name)!.value;
      const withRetry: Har = {
        log: {
          ...har.log,
          entries: [
            {
              ...entry,
              response: {
                ...entry.response,
                headers: [...entry.response.headers, { name: 'retry-after', value: '7' }],
              },
            },
          ],
        },
      };
      const hour = 3_600_000;
      const server = await startMockServer({ replay: withRetry, now: () => started + hour });
      try {
        const response = await fetch(`${server.url}/v1/users?limit=100`);
        expect(response.status).toBe(200);
        expect(Number(response.headers.get('x-ratelimit-reset'))).toBe(
          Number(header('x-ratelimit-reset')) + 3600,
        );
        expect(Date.parse(response.headers.get('date')!)).toBe(Date.parse(header('date')) + hour);
        expect(response.headers.get('retry-after')).toBe('7');
        expect(response.headers.get('x-ratelimit-remaining')).toBe(header('x-ratelimit-remaining'));
      } finally {
        await server.close();
      }
    });
  });
});

describe('a replay that is not a HAR', () => {
  it('is refused where it is given, and leaves no server listening', async () => {
    const probe = await startMockServer();
    const port = Number(new URL(probe.url).port);
    await probe.close();
    await expect(startMockServer({ replay: { log: {} } as never, port })).rejects.toThrow(
      /The recording is not a HAR 1\.2 document: log\.entries is missing/,
    );
    // The port is free again: the refused server closed.
    const again = await startMockServer({ port });
    await again.close();
    expect(() => fromRecording(null as never)).toThrow(
      /The recording is not a HAR 1\.2 document: the document is null/,
    );
  });
});
