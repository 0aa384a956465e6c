// A Worker that receives webhooks with the SDK's receiver: routing, de-duplication and the Fetch
// adapter. What the receiver costs over verifyWebhook alone (bench/size/webhook-app.js).
import { createWebhookReceiver, createWebMiddleware } from '@employee-recognition/sdk/webhooks';

const receiver = createWebhookReceiver().on('recognition.created', (event) => {
  console.log(event.data.message);
});

export default { fetch: createWebMiddleware(receiver, { waitUntil: true }) };
