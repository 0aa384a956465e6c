// A worker that verifies webhook deliveries with the SDK's webhooks entry: what its bundle costs.
import { verifyWebhook } from '@employee-recognition/sdk/webhooks';

addEventListener('fetch', (event) => {
  event.respondWith(
    event.request
      .text()
      .then((body) => verifyWebhook(body, event.request.headers, globalThis.WEBHOOK_SECRET))
      .then((delivery) => new Response(delivery.type)),
  );
});
