/**
 * A webhook receiver on Express 5.
 * Run: `RECOGNITION_WEBHOOK_SECRET=whsec_… npx tsx examples/webhooks/express.ts`
 */
import { fileURLToPath } from 'node:url';
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';
import express, { type Express } from 'express';
import { handleEvent, rejectionStatus } from './handle-event.js';
import type { ReceiverOptions } from './node-http.js';

/** An app with `POST /webhooks`: 204 for verified deliveries, 400 (with the reason) otherwise. */
export function createWebhookApp({ secret, onEvent }: ReceiverOptions): Express {
  const app = express();
  // express.raw keeps the body as the Buffer that was signed. Mount it on this route only, and do
  // not let express.json() run first: parsing and re-serialising changes the bytes.
  app.post('/webhooks', express.raw({ type: 'application/json' }), async (request, response) => {
    let event: WebhookEvent;
    try {
      // Without a JSON content type, request.body is undefined: that fails as invalid_payload.
      event = await verifyWebhook(request.body, request.headers, secret);
    } catch (error) {
      if (!(error instanceof WebhookVerificationError)) throw error;
      response.status(rejectionStatus(error)).json({ error: error.reason });
      return;
    }
    // Express 5 turns a rejection here into a 500, so the service retries the delivery.
    await onEvent(event);
    response.sendStatus(204);
  });
  return app;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const app = createWebhookApp({ onEvent: handleEvent });
  app.listen(3000, (error) => {
    if (error) throw error;
    console.log('Receiving webhooks on http://localhost:3000/webhooks');
  });
}
