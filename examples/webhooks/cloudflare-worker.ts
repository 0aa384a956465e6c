/**
 * A webhook receiver as a Cloudflare Worker, on Hono. Store the secret with
 * `wrangler secret put RECOGNITION_WEBHOOK_SECRET`. Web Crypto verifies here; no Node compatibility needed.
 */
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';
import { Hono } from 'hono';
import { handleEvent, rejectionStatus } from './handle-event.js';

/** The Worker's bindings. */
export interface Env {
  RECOGNITION_WEBHOOK_SECRET: string;
}

/** `POST /webhooks`: 204 for verified deliveries, 400 (with the reason) otherwise. */
const app = new Hono<{ Bindings: Env }>();

app.post('/webhooks', async (c) => {
  let event: WebhookEvent;
  try {
    // The raw bytes, as signed; c.req.json() would parse them first.
    event = await verifyWebhook(
      await c.req.arrayBuffer(),
      c.req.raw.headers,
      c.env.RECOGNITION_WEBHOOK_SECRET,
    );
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return c.json({ error: error.reason }, rejectionStatus(error));
  }
  await handleEvent(event);
  return c.body(null, 204);
});

// A Worker module: the runtime calls app.fetch(request, env, ctx).
export default app;
