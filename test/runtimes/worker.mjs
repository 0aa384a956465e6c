// Cloudflare Worker around the smoke test: POST the smoke's settings as JSON, get its result.
// It also serves a webhook receiver on /webhooks, its secret from the RECOGNITION_WEBHOOK_SECRET
// binding and its handlers run in ctx.waitUntil, which the driver posts signed deliveries to.
// scripts/test-runtimes.mjs bundles this with esbuild and serves it with workerd.
import { createWebhookReceiver, createWebMiddleware } from '@employee-recognition/sdk/webhooks';
import { runSmoke } from './smoke.mjs';

const receiver = createWebMiddleware(createWebhookReceiver(), {
  path: '/webhooks',
  waitUntil: true,
});

export default {
  async fetch(request, env, ctx) {
    if (new URL(request.url).pathname === '/webhooks') return receiver(request, env, ctx);
    if (request.method !== 'POST')
      return new Response('POST the smoke settings\n', { status: 405 });
    const config = await request.json();
    const result = await runSmoke(config, () => {});
    return Response.json(result);
  },
};
