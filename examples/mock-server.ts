/**
 * The mock Employee Recognition API on localhost, seeded with an organisation's worth of data.
 * Run: `npm run mock` (port from PORT, default 4010; Ctrl+C stops it).
 */

import { startMockServer } from '@employee-recognition/sdk/testing';

const port = Number(process.env.PORT ?? 4010);
const server = await startMockServer({ port });

console.log(`Mock Employee Recognition API at ${server.url}
Test key (every scope, 100 requests per minute): ${server.api.testKey}

Point the SDK at it:
  export RECOGNITION_BASE_URL=${server.url}
  export RECOGNITION_API_KEY=${server.api.testKey}

or in code:
  new Client({ baseUrl: '${server.url}', apiKey: '${server.api.testKey}' })

Try it:
  curl -H 'Authorization: Bearer ${server.api.testKey}' '${server.url}/v1/recognitions?limit=2'

The API's OpenAPI document: ${server.url}/openapi.json
`);

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    console.log('\nStopping the mock server.');
    void server.close();
  });
}
