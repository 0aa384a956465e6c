/**
 * Benchmark 3: webhook verification, operations per second: the SDK's `verifyWebhook` against
 * the Standard Webhooks reference library (`standardwebhooks`, constructed once with the secret,
 * as its documentation shows), side by side in one process. Each round runs every target for a
 * fixed time, in rotating order; ratios are per round.
 *
 * `node` mode measures verifyWebhook as it runs in Node (node:crypto). `web-crypto` mode hides
 * `process.getBuiltinModule` before the SDK loads, so verifyWebhook takes the Web Crypto path
 * that browsers and workers use; the reference runs beside it again, in that process. (The
 * backend is chosen once per module instance, so the two paths need two processes.)
 *
 * Usage: node bench/webhooks.mjs <node|web-crypto> [rounds] [ms-per-target-per-round]
 */
import { createHmac, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { importSdk, report, summarize } from './lib/stats.mjs';

const [mode, roundsArg = '9', msArg = '250'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const MS = Number(msArg);
if (mode !== 'node' && mode !== 'web-crypto') throw new Error(`unknown mode ${mode}`);
if (mode === 'web-crypto') process.getBuiltinModule = undefined;
const SDK = mode === 'node' ? 'verifyWebhook (node:crypto)' : 'verifyWebhook (Web Crypto)';

const { verifyWebhook } = await importSdk('webhooks');

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const key = Buffer.from(secret.slice(6), 'base64');

/** A recognition.created delivery whose JSON body is `bytes` long, with its signed headers. */
function delivery(bytes) {
  const event = {
    id: 'evt_01JBENCH',
    type: 'recognition.created',
    created_at: '2026-11-22T00:00:00Z',
    data: {
      id: '00000000-0000-4000-8000-000000010001',
      sender: { id: '00000000-0000-4000-8000-000000000001', name: 'Ada Lovelace' },
      recipient: { id: '00000000-0000-4000-8000-000000000002', name: 'Grace Hopper' },
      message: '',
      points: 50,
      created_at: '2026-11-22T00:00:00Z',
    },
  };
  const base = JSON.stringify(event).length;
  event.data.message = 'x'.repeat(Math.max(0, bytes - base));
  const payload = JSON.stringify(event);
  const id = 'msg_bench';
  const timestamp = String(Math.floor(Date.now() / 1000));
  const signature = createHmac('sha256', key)
    .update(`${id}.${timestamp}.${payload}`)
    .digest('base64');
  return {
    payload,
    headers: {
      'webhook-id': id,
      'webhook-timestamp': timestamp,
      'webhook-signature': `v1,${signature}`,
    },
  };
}

const reference = new Webhook(secret);
const TARGETS = {
  [SDK]: ({ payload, headers }) => verifyWebhook(payload, headers, secret),
  standardwebhooks: ({ payload, headers }) => reference.verify(payload, headers),
};

/** Verifications per second, sequentially, for `ms` milliseconds. */
async function opsPerSecond(verify, input, ms) {
  let ops = 0;
  const start = performance.now();
  let now = start;
  while (now - start < ms) {
    for (let i = 0; i < 16; i++) await verify(input);
    ops += 16;
    now = performance.now();
  }
  return (ops * 1000) / (now - start);
}

const results = {};
for (const size of [1024, 100 * 1024]) {
  const input = delivery(size);
  const label = size >= 1024 * 1024 ? `${size / 1024 / 1024} MB` : `${size / 1024} KB`;
  for (const [name, verify] of Object.entries(TARGETS)) {
    const event = await verify(input);
    if (event?.type !== 'recognition.created') throw new Error(`${name} did not verify`);
    await opsPerSecond(verify, input, MS); // warm-up
  }
  const names = Object.keys(TARGETS);
  const ops = Object.fromEntries(names.map((name) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length];
      ops[name].push(await opsPerSecond(TARGETS[name], input, MS));
    }
  }
  const ratio = (name) => ops[name].map((value, round) => value / ops.standardwebhooks[round]);
  results[label] = {
    payloadBytes: input.payload.length,
    targets: Object.fromEntries(
      names.map((name) => [
        name,
        { opsPerSecond: summarize(ops[name]), ratioToReference: summarize(ratio(name)) },
      ]),
    ),
  };
}

report({ mode, rounds: ROUNDS, msPerTargetPerRound: MS, sizes: results });
