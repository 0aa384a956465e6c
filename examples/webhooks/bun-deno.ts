/**
 * A webhook receiver for Bun and Deno, which both serve a module's default `{ fetch }`:
 * `RECOGNITION_WEBHOOK_SECRET=whsec_… bun run examples/webhooks/bun-deno.ts`, or
 * `deno serve --allow-env --allow-net examples/webhooks/bun-deno.ts`. With Bun.serve or
 * Deno.serve, pass the same handler as `fetch`.
 */
import { createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

export default { port: 3000, fetch: createWebMiddleware(receiver, { path: '/webhooks' }) };
