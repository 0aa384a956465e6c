/**
 * A webhook receiver on plain node:http.
 * Run: `RECOGNITION_WEBHOOK_SECRET=whsec_… npx tsx examples/webhooks/node-http.ts`, then
 * `npx employee-recognition trigger recognition.created --url http://localhost:3000/webhooks`.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createNodeMiddleware } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

// POST /webhooks is the receiver; any other path is answered 404.
export const server = createServer(createNodeMiddleware(receiver, { path: '/webhooks' }));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  server.listen(3000, () => console.log('Receiving webhooks on http://localhost:3000/webhooks'));
}
