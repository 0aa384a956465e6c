/**
 * A webhook receiver in an Express app (Express 4 or 5; Connect alike).
 * Run: `RECOGNITION_WEBHOOK_SECRET=whsec_… npx tsx examples/webhooks/express.ts`, then
 * `npx employee-recognition trigger recognition.created --url http://localhost:3000/webhooks`.
 */
import { fileURLToPath } from 'node:url';
import { createNodeMiddleware } from '@employee-recognition/sdk/webhooks';
import express from 'express';
import { receiver } from './receiver.js';

export const app = express();
// The receiver reads the raw body itself, so its route comes before express.json(): a body that
// parser consumed can no longer be verified (the receiver would answer 500 and log why).
app.post('/webhooks', createNodeMiddleware(receiver));

// The rest of your API, with its JSON bodies.
app.use(express.json());
app.post('/api/echo', (request, response) => void response.json(request.body));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  app.listen(3000, () => console.log('Receiving webhooks on http://localhost:3000/webhooks'));
}
