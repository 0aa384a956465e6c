import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '@employee-recognition/sdk';
import { generateWebhookSecret } from '@employee-recognition/sdk/testing';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, startTestServer, type TestServer } from '../support/http-server.js';
import { type InstalledCli, installCli } from './installed-cli.js';

interface WebhookEvent {
  id: string;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

interface Delivery {
  event: WebhookEvent;
  headers: Record<string, string>;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const secret = generateWebhookSecret();
let cli: InstalledCli;
let receiver: TestServer;
// What the receiver verified with the reference library, by webhook-id, so runs side by side
// each find their own.
const verified = new Map<string, Delivery>();

beforeAll(async () => {
  // The receiver a customer would write: the raw body and headers through standardwebhooks.
  receiver = await startTestServer((request, response) => {
    let body = '';
    request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      const headers = request.headers as Record<string, string>;
      try {
        const event = new Webhook(secret).verify(body, headers) as WebhookEvent;
        verified.set(headers['webhook-id']!, { event, headers });
        response.writeHead(204).end();
      } catch (error) {
        response.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
      }
    });
  });
  cli = await installCli();
}, 180_000);

afterAll(async () => {
  await cli?.remove();
  await receiver?.close();
});

// Runs trigger; `delivery` is what the receiver verified of the event the run reports.
async function trigger(args: string[], env: Record<string, string> = {}) {
  const result = await cli.run(['trigger', ...args], { env });
  const eventId = /^\S+ (evt_\w+) -> /m.exec(result.stdout + result.stderr)?.[1];
  return { ...result, eventId, delivery: eventId ? verified.get(eventId) : undefined };
}

describe('employee-recognition trigger', () => {
  // Side by side: each run is a process of its own, finding its delivery by event id.
  it.concurrent.each(WEBHOOK_EVENT_TYPES)(
    'delivers a signed %s event with a record of the mock that the reference library verifies',
    async (type) => {
      const result = await trigger([type, '--url', `${receiver.url}/webhooks`, '--secret', secret]);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
      expect(result.delivery).toBeDefined();
      const { event, headers } = result.delivery!;
      expect(event.type).toBe(type);
      expect(event.id).toMatch(/^evt_/);
      expect(headers['webhook-id']).toBe(event.id);
      expect(result.stdout).toMatch(new RegExp(`^${type} ${event.id} -> \\S+: 204 in \\d+ ms\\n$`));
      if (type.startsWith('team.member_')) {
        const { team, user } = event.data as { team: { id: string }; user: { team_id: unknown } };
        expect(team.id).toMatch(UUID);
        expect(user.team_id).toBe(type === 'team.member_added' ? team.id : null);
      } else {
        expect(event.data.id).toMatch(UUID);
      }
      if (type === 'user.deactivated') expect(event.data.status).toBe('deactivated');
      if (type === 'budget.depleted') expect(event.data.remaining_points).toBe(0);
    },
  );

  it('gives every run its own event id, so receivers that drop repeats take each one', async () => {
    const args = ['recognition.created', '--url', receiver.url, '--secret', secret];
    const first = await trigger(args);
    const second = await trigger(args);
    expect(first.delivery).toBeDefined();
    expect(second.delivery).toBeDefined();
    expect(second.eventId).not.toBe(first.eventId);
  });

  it('signs with RECOGNITION_WEBHOOK_SECRET when --secret is absent', async () => {
    const result = await trigger(['reward.redeemed', '--url', receiver.url], {
      RECOGNITION_WEBHOOK_SECRET: secret,
    });
    expect(result.code).toBe(0);
    expect(result.delivery?.event.type).toBe('reward.redeemed');
  });

  it('makes and prints a secret when given none, and signs with it', async () => {
    const result = await trigger(['user.created', '--url', receiver.url]);
    // The receiver knows another secret, so it rejects; the printed one verifies the delivery.
    expect(result.code).toBe(1);
    const printed = /Signing with a new secret \(choose one with --secret\): (whsec_\S+)/.exec(
      result.stdout,
    )?.[1];
    expect(printed).toBeDefined();
    expect(printed).not.toBe(secret);
    const other = await startTestServer((request, response) => {
      let body = '';
      request.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      request.on('end', () => {
        new Webhook(printed!).verify(body, request.headers as Record<string, string>);
        response.writeHead(200).end();
      });
    });
    try {
      const again = await cli.run(['trigger', 'user.created', '--url', other.url], {
        env: { RECOGNITION_WEBHOOK_SECRET: printed! },
      });
      expect(again.code).toBe(0);
    } finally {
      await other.close();
    }
  });

  it('sends the data of a --data file as the event data', async () => {
    const file = join(cli.project, 'event-data.json');
    const data = { id: '7d0c0f38-5f5e-4a63-9a39-3f5a2d1c0b11', name: 'From a file', extra: [1, 2] };
    writeFileSync(file, JSON.stringify(data));
    const result = await trigger([
      'team.created',
      '--url',
      receiver.url,
      '--secret',
      secret,
      '--data',
      file,
    ]);
    expect(result.code).toBe(0);
    expect(result.delivery?.event.data).toEqual(data);
  });

  it('exits 1 with the status and the receiver’s reason when the receiver rejects the delivery', async () => {
    const result = await trigger([
      'recognition.created',
      '--url',
      receiver.url,
      '--secret',
      generateWebhookSecret(),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/rejected with 400 in \d+ ms: .*signature/i);
    expect(result.eventId).toBeDefined();
    expect(result.delivery).toBeUndefined();
  });

  it('exits 1 and says why when the receiver cannot be reached', async () => {
    const url = await closedPort();
    const result = await trigger(['recognition.created', '--url', url, '--secret', secret]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/not delivered after \d+ ms: .*ECONNREFUSED/);
  });

  it('exits 2 on an unknown event type, a missing --url or a malformed secret, sending nothing', async () => {
    const received = receiver.requests.length;
    const unknown = await trigger(['recognition.exploded', '--url', receiver.url]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('Unknown event type "recognition.exploded"');
    const noUrl = await trigger(['recognition.created']);
    expect(noUrl.code).toBe(2);
    expect(noUrl.stderr).toContain('--url is required');
    const badSecret = await trigger([
      'recognition.created',
      '--url',
      receiver.url,
      '--secret',
      'whsec_!!',
    ]);
    expect(badSecret.code).toBe(2);
    expect(badSecret.stderr).toContain('must be whsec_ followed by base64');
    expect(badSecret.stderr).not.toContain('whsec_!!');
    expect(receiver.requests).toHaveLength(received);
  });
});
