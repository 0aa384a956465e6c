/**
 * A deploy step: brings the service's webhook subscription in step with the receiver's handlers
 * (./receiver.ts), so an event someone adds a handler for is also subscribed to. Safe on every
 * deploy: when the subscription already matches, it writes nothing.
 * Run: `RECOGNITION_API_KEY=rk_… WEBHOOK_URL=https://app.example/webhooks npx tsx examples/webhooks/deploy.ts`
 * (the CLI does the same: `npx employee-recognition webhooks sync --receiver … --secret-file …`).
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@employee-recognition/sdk';
import { syncWebhooks, type WebhookSyncResult } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

/**
 * Syncs the subscription for `url`. A new webhook's secret is written to `secretFile`, readable by
 * this user only; hand it to your secret store and to the receiver (RECOGNITION_WEBHOOK_SECRET).
 */
export async function deployWebhooks(
  client: Client,
  url: string,
  secretFile: string,
): Promise<WebhookSyncResult> {
  const result = await syncWebhooks(client, receiver, { url, description: 'Recognition app' });
  for (const step of result.done) {
    console.log(`webhooks: ${step.operation}`, 'params' in step ? step.params : step.webhookId);
  }
  if (result.done.length === 0) console.log(`webhooks: in step (${result.events.join(', ')})`);
  // The secret never goes to the log: only to a file of mode 0600.
  if (result.secret) await writeFile(secretFile, `${result.secret}\n`, { mode: 0o600 });
  if (result.rotation) console.log('webhooks: a secret rotation is in progress');
  return result;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const url = process.env.WEBHOOK_URL;
  if (!url) throw new Error('Set WEBHOOK_URL to the receiver’s public URL.');
  await deployWebhooks(new Client(), url, '.webhook-secret');
}
