// A worker that verifies webhook deliveries importing verifyWebhook from the main entry: what its bundle costs.
import { verifyWebhook } from '@employee-recognition/sdk';

addEventListener('fetch', (event) => {
  event.respondWith(
    event.request
      .text()
      .then((body) => verifyWebhook(body, event.request.headers, globalThis.WEBHOOK_SECRET))
      .then((delivery) => new Response(delivery.type)),
  );
});
