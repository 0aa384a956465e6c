/**
 * A webhook receiver as a Remix (or React Router 7) resource route: app/routes/webhooks.ts.
 * Set RECOGNITION_WEBHOOK_SECRET in the environment.
 */
import { createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { receiver } from './receiver.js';

const handle = createWebMiddleware(receiver);

/** POST /webhooks; Remix answers other methods 405 itself, as there is no loader. */
export function action({ request }: { request: Request }): Promise<Response> {
  return handle(request);
}
