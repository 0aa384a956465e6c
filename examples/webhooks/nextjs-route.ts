/**
 * A webhook receiver as a Next.js App Router route handler, e.g. app/api/webhooks/route.ts.
 * Set RECOGNITION_WEBHOOK_SECRET in the environment: verifyWebhook reads it.
 */
import {
  verifyWebhook,
  type WebhookEvent,
  WebhookVerificationError,
} from '@employee-recognition/sdk/webhooks';
import { handleEvent, rejectionStatus } from './handle-event.js';

/** Answers 204 to verified deliveries and 400 (with the reason) to the rest. */
export async function POST(request: Request): Promise<Response> {
  let event: WebhookEvent;
  try {
    // request.text() is the raw body; request.json() would lose the exact bytes that were signed.
    event = await verifyWebhook(await request.text(), request.headers);
  } catch (error) {
    if (!(error instanceof WebhookVerificationError)) throw error;
    return Response.json({ error: error.reason }, { status: rejectionStatus(error) });
  }
  // A failure here becomes a 500, and the service retries the delivery.
  await handleEvent(event);
  return new Response(null, { status: 204 });
}
