/**
 * `npm run demo`: starts the mock API on 127.0.0.1, runs the quickstart against it over real
 * HTTP, and stops. Nothing to configure and nothing leaves the machine.
 */
import { Client } from '@employee-recognition/sdk';
import { startMockServer } from '@employee-recognition/sdk/testing';
import { quickstart } from './quickstart.js';

// Seeded data leads up to today, so "the last 30 days" always finds some.
const server = await startMockServer({ seed: 7, referenceDate: new Date() });
console.log(`Mock Employee Recognition API listening at ${server.url}\n`);
try {
  await quickstart(new Client({ baseUrl: server.url, apiKey: server.api.testKey }));
  console.log(`\nThe mock served ${server.api.requests.length} requests. Done.`);
} finally {
  await server.close();
}
