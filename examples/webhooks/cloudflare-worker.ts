/**
 * A webhook receiver as a Cloudflare Worker. Store the secret with
 * `wrangler secret put RECOGNITION_WEBHOOK_SECRET`: the receiver reads that binding from `env`.
 * Web Crypto verifies here; no Node compatibility needed.
 */
import { createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

// waitUntil: answer 202 once a delivery is verified, and run the handlers after the answer with
// ctx.waitUntil, so slow work never meets the service's 15 s timeout.
export default { fetch: createWebMiddleware(receiver, { waitUntil: true }) };
