/**
 * Runs SDK calls in a process of its own and reports, as one JSON line on stdout, how each ended
 * and how much memory and CPU they took. Started by `runClientInChild` (child-process.ts) with
 * `node --expose-gc --import tsx`, so that a call that exhausts memory or freezes the event loop
 * takes down only this process, and its peak is measured apart from the test runner's.
 *
 * Input (env CHILD_INPUT, JSON): baseUrl, apiKey, options (client options), and the ids of the
 * users to get, one after the other, which the parent's server answers hostilely. `/v1/users/warm-up` must answer
 * normally: one call warms the HTTP stack before the baseline is taken. With `liveMemory`, each
 * sample first collects garbage, so the heap figure is what the process holds, not what V8 has
 * yet to collect. Garbage left by a read depends on when V8 chooses to collect, which differs
 * from run to run and from one Node version to the next: a 1 MiB-capped bomb read measured 8.1
 * to 8.8 MiB with garbage on Node 22 and 24, and 1.5 to 2.3 MiB live on Node 20, 22 and 24.
 */
import { Client, EmployeeRecognitionError } from '@employee-recognition/sdk';

interface ChildInput {
  baseUrl: string;
  apiKey: string;
  options: Record<string, unknown>;
  userIds: string[];
  liveMemory?: boolean;
}

const input = JSON.parse(process.env.CHILD_INPUT ?? '{}') as ChildInput;
const collect = (globalThis as { gc?: () => void }).gc ?? (() => {});
const client = new Client({ apiKey: input.apiKey, baseUrl: input.baseUrl, ...input.options });

await client.users.get('warm-up');
collect();
const heapAndBuffers = () => {
  const usage = process.memoryUsage();
  // `external` includes every ArrayBuffer and Buffer, decompression output included.
  return usage.heapUsed + usage.external;
};
const baseline = {
  rss: process.memoryUsage().rss,
  maxRss: process.resourceUsage().maxRSS * 1024,
  heapAndBuffers: heapAndBuffers(),
};
let peakRss = baseline.rss;
let peakHeapAndBuffers = baseline.heapAndBuffers;
const sample = () => {
  if (input.liveMemory) collect();
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  peakHeapAndBuffers = Math.max(peakHeapAndBuffers, heapAndBuffers());
};
const sampler = setInterval(sample, 1);
const cpuBefore = process.cpuUsage();

const outcomes: Record<string, unknown>[] = [];
for (const userId of input.userIds) {
  try {
    await client.users.get(userId);
    outcomes.push({ resolved: true });
  } catch (error) {
    const e = error as Record<string, unknown> & Error;
    outcomes.push({
      resolved: false,
      name: e.name,
      sdkError: error instanceof EmployeeRecognitionError,
      message: String(e.message),
      limit: e.limit,
      status: e.status,
      code: e.code,
    });
  }
}
sample();
clearInterval(sampler);
const cpu = process.cpuUsage(cpuBefore);
const maxRss = process.resourceUsage().maxRSS * 1024;
process.stdout.write(
  `${JSON.stringify({
    outcomes,
    baseline,
    peakRss: Math.max(peakRss, maxRss),
    peakRssGrowth: Math.max(peakRss, maxRss) - Math.max(baseline.rss, baseline.maxRss),
    peakHeapAndBuffersGrowth: peakHeapAndBuffers - baseline.heapAndBuffers,
    cpuMicros: cpu.user + cpu.system,
  })}\n`,
);
