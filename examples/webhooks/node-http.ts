/**
 * A webhook receiver on plain node:http.
 * Run: `RECOGNITION_WEBHOOK_SECRET=whsec_… npx tsx examples/webhooks/node-http.ts`
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';
import { handleEvent, rejectionStatus } from './handle-event.js';

/** What the receiver needs: the secret(s) and what to do with each verified event. */
export interface ReceiverOptions {
  /** Default: the RECOGNITION_WEBHOOK_SECRET environment variable, as verifyWebhook reads it. */
  secret?: string | string[];
  onEvent: (event: WebhookEvent) => Promise<void>;
}

// The signature covers the body's exact bytes, so keep them as a Buffer; never parse first.
async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A server that answers 204 to verified deliveries and 400 (with the reason) to the rest. */
export function createWebhookServer({ secret, onEvent }: ReceiverOptions): Server {
  return createServer(async (request, response) => {
    if (request.method !== 'POST') {
      response.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    try {
      // Node gives header names in lower case and repeated headers as arrays; both are fine.
      const event = await verifyWebhook(await readBody(request), request.headers, secret);
      await onEvent(event);
      response.writeHead(204).end();
    } catch (error) {
      if (error instanceof WebhookVerificationError) {
        response
          .writeHead(rejectionStatus(error), { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: error.reason }));
        return;
      }
      // The event was genuine but handling it failed: a 5xx makes the service retry it.
      console.error(error);
      response.writeHead(500).end();
    }
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = createWebhookServer({ onEvent: handleEvent });
  server.listen(3000, () => console.log('Receiving webhooks on http://localhost:3000'));
}
