// Cloudflare Worker around the smoke test: POST the smoke's settings as JSON, get its result.
// scripts/test-runtimes.mjs bundles this with esbuild and serves it with workerd.
import { runSmoke } from './smoke.mjs';

export default {
  async fetch(request) {
    if (request.method !== 'POST')
      return new Response('POST the smoke settings\n', { status: 405 });
    const config = await request.json();
    const result = await runSmoke(config, () => {});
    return Response.json(result);
  },
};
