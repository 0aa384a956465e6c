/**
 * Benchmark 8: what the redaction costs on a hostile answer. A service answers a 503 whose error
 * message is a page of escapes (1 MB by default), and the client logs at debug: the SDK redacts
 * the call's own credential from the error and from the debug line, in every form it may have
 * been written back (src/internal/redact.ts reads each order of percent- and JSON-decoding). Four
 * pages, each the worst of its kind: backslashes (JSON's `\\` at every depth), percent-encoding
 * nested at every depth, `\u` escapes, and the two mixed; and a page without escapes, the cost of
 * an ordinary answer. The figure is the time of one call, `fetch` answering at once, median of
 * the rounds. BENCH_COMPARE_DIR=<build dir> measures a second build beside it, round by round.
 *
 * Usage: node bench/redaction.mjs [rounds] [page-bytes]
 */
import { pathToFileURL } from 'node:url';
import { importSdk, pairedRatios, report, summarize } from './lib/stats.mjs';

const [roundsArg = '9', bytesArg = '1000000'] = process.argv.slice(2);
const ROUNDS = Number(roundsArg);
const BYTES = Number(bytesArg);
// A credential of no known shape, with characters every encoding writes differently.
const CREDENTIAL = 'ya29.Opaque/Token+"<{x}>:1\\';
const PAGES = {
  backslashes: `%252525 ${'\\'.repeat(256)} `,
  'nested percent': '%25252525%2525%41%5C%5C%5Cu0041 ',
  'unicode escapes': '\\u0025\\u0032\\u0035\\u005c\\u005c ',
  mixed: '%5C%5Cu0025\\\\u0025\\/%2F ',
  'no escapes': 'an ordinary answer, with words and no escapes at all. ',
};

/** A client whose every call meets a 503 with `message` as its error message, logged at debug. */
function clientFor(Client, message) {
  const body = JSON.stringify({ error: { code: 'unavailable', message } });
  return new Client({
    apiKey: () => CREDENTIAL,
    baseUrl: 'http://127.0.0.1:9',
    maxRetries: 0,
    logLevel: 'debug',
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    fetch: async () =>
      new Response(body, { status: 503, headers: { 'content-type': 'application/json' } }),
  });
}

async function timeCall(client) {
  const start = performance.now();
  await client.users.get('00000000-0000-4000-8000-000000000001').catch(() => {});
  return performance.now() - start;
}

const { Client } = await importSdk();
const compareDir = process.env.BENCH_COMPARE_DIR;
const Baseline = compareDir
  ? (await import(pathToFileURL(`${compareDir}/index.js`).href)).Client
  : undefined;

const pages = {};
for (const [name, chunk] of Object.entries(PAGES)) {
  const message = chunk.repeat(Math.ceil(BYTES / chunk.length)).slice(0, BYTES);
  const sdk = clientFor(Client, message);
  const baseline = Baseline && clientFor(Baseline, message);
  const ms = [];
  const baselineMs = [];
  await timeCall(sdk); // warm-up
  for (let round = 0; round < ROUNDS; round++) {
    ms.push(await timeCall(sdk));
    if (baseline) baselineMs.push(await timeCall(baseline));
  }
  pages[name] = {
    ms: summarize(ms),
    ...(baseline && { baselineMs: summarize(baselineMs), ratio: pairedRatios(ms, baselineMs) }),
  };
}
report({ rounds: ROUNDS, bytes: BYTES, pages });
