/**
 * Mutation testing (`npm run test:mutation`; docs/mutation-testing.md has the scores, the
 * survivors and when to run it). Stryker changes one operator, literal or condition of a module
 * at a time and runs the tests that cover that spot; a change no test notices is behaviour no test
 * pins. Not part of `npm test` or CI: a run of every module takes tens of minutes on 2 cores.
 */

/**
 * The modules measured, each with the test files that exercise it: its own (the mirrored path,
 * every `<name>*.test.ts` beside it) and those that reach it through the client. Only these run
 * (vitest.mutation.config.mjs): Vitest's `related` selection alone would take most of the suite,
 * since nearly every test imports the client and the client imports every module.
 */
const MODULES = {
  'src/internal/link.ts': [
    'test/internal/link*.test.ts',
    'test/internal/deprecation.test.ts',
    'test/core/pagination.test.ts',
    'test/core/request.deprecation.test.ts',
  ],
  'src/internal/headers.ts': [
    'test/internal/headers*.test.ts',
    'test/core/retry*.test.ts',
    'test/core/throttle*.test.ts',
    'test/core/shared-throttle*.test.ts',
  ],
  'src/webhooks/verify.ts': ['test/webhooks/verify*.test.ts'],
  'src/core/retry.ts': ['test/core/retry*.test.ts'],
  // The throttle's promises are pinned beside its own tests by issue 45's pacing properties
  // (simulated services on a simulated clock, fixed seed, about a second) and by the request
  // core's wait tests (every wait told: the hook, the metric, the info lines its WaitLines write).
  'src/core/throttle.ts': [
    'test/core/throttle*.test.ts',
    'test/core/shared-throttle*.test.ts',
    'test/core/pacing.property.test.ts',
    'test/core/request.waits.test.ts',
  ],
  // The redaction: the one of every door a byte leaves by (issue 44's src/internal/redact.ts,
  // measured once it exists) and the recorder's.
  'src/internal/redact.ts': ['test/internal/redact*.test.ts', 'test/core/logger*.test.ts'],
  'src/testing/redact.ts': ['test/testing/redact*.test.ts', 'test/testing/recorder*.test.ts'],
  'src/testing/har.ts': [
    'test/testing/har*.test.ts',
    'test/testing/replay*.test.ts',
    'test/doctor/traffic*.test.ts',
    'test/cli/traffic*.test.ts',
  ],
  // `traffic`'s comparisons (the doctor's checkTraffic and diffTraffic) and its command line.
  'src/doctor/traffic.ts': ['test/doctor/traffic*.test.ts', 'test/cli/traffic*.test.ts'],
  // usage.test.ts checks every command's name, flags and whether it connects.
  'src/cli/traffic.ts': ['test/cli/traffic*.test.ts', 'test/cli/usage.test.ts'],
};

/**
 * The modules a run mutates: those `--mutate` names (without a line range), else all. Stryker's
 * workers load vitest.mutation.config.mjs, and so this file, without its command line: the
 * first load, in the main process, passes the answer to them in the environment.
 */
function mutatedModules() {
  const flag = process.argv.findIndex((arg) => arg === '--mutate' || arg === '-m');
  const inline = process.argv.find((arg) => arg.startsWith('--mutate='));
  const asked = flag >= 0 ? process.argv[flag + 1] : inline?.slice('--mutate='.length);
  if (asked !== undefined) process.env.MUTATION_MODULES ??= asked;
  const named = (process.env.MUTATION_MODULES ?? '')
    .split(',')
    .map((spec) => spec.replace(/:\d+(?::\d+)?-\d+(?::\d+)?$/, ''));
  // A file or pattern not listed here runs with every listed test file.
  return named.every((module) => module in MODULES) ? named : Object.keys(MODULES);
}

/**
 * The test files of the mutated modules: the run takes, of these, the ones whose imports reach
 * the mutated module. Not every module's: a file another module lists may reach this one too, and
 * one that does its work in a `beforeAll` (the replay tests record a session there) covers the
 * module outside any test, which makes each mutant it reaches "static", run with every test file
 * in a fresh module: `src/testing/redact.ts` would take over 2 hours so (Stryker's estimate),
 * 45 minutes with its own.
 */
export const MUTATION_TEST_FILES = [
  ...new Set(mutatedModules().flatMap((module) => MODULES[module])),
];

export default {
  testRunner: 'vitest',
  // The test files are chosen in Vitest's config, not with Stryker's `testFiles`: with that option
  // Stryker 9.6 activates a mutant of a module's top-level code (a constant, a regular expression)
  // after the module has loaded, and reports it survived (stryker-js issue 6144).
  vitest: { configFile: 'vitest.mutation.config.mjs', related: true },
  // Each mutant runs only the tests that executed its code in the first, instrumented run.
  coverageAnalysis: 'perTest',
  // `--mutate <file>` on the command line measures one module (with the same test files).
  mutate: Object.keys(MODULES),
  // Two cores: one worker each. More only makes the workers wait for each other.
  concurrency: 2,
  reporters: ['clear-text', 'progress', 'html', 'json'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  // A mutant's tests may take this much longer than unmutated before it counts as hanging (a
  // "timeout", scored as detected). Generous: on 2 busy cores a slow run is not a hang.
  timeoutMS: 30_000,
  // The bar a module is held to (docs/mutation-testing.md); the run reports, it does not fail.
  thresholds: { high: 90, low: 80, break: null },
};
