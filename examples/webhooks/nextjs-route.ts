/**
 * A webhook receiver as a Next.js App Router route handler: app/api/webhooks/route.ts.
 * Set RECOGNITION_WEBHOOK_SECRET in the environment.
 */
import { createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

export const POST = createWebMiddleware(receiver);
