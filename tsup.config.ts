import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

/** The packages bundled into every build of dist/. */
const BUNDLED = ['zod'];
/**
 * ESM-only dependencies: the ESM build imports them, the CommonJS build bundles them, since
 * `require()` of an ES module fails on Node 20 before 20.19.
 */
const ESM_ONLY = ['ky', 'oauth4webapi'];

/** dist/THIRD-PARTY-LICENSES.md: each bundled package's name, version and licence text. */
async function writeLicences(): Promise<void> {
  const sections = [...BUNDLED, ...ESM_ONLY].map((name) => {
    const dir = `node_modules/${name}`;
    const { version, license } = JSON.parse(readFileSync(`${dir}/package.json`, 'utf8')) as {
      version: string;
      license: string;
    };
    const file = readdirSync(dir).find((entry) => /^licen[cs]e(\.md|\.txt)?$/i.test(entry));
    const text = readFileSync(`${dir}/${file}`, 'utf8').trim();
    const where = ESM_ONLY.includes(name) ? ', in the CommonJS build (dist/*.cjs) only' : '';
    return `## ${name} ${version} (${license}${where})\n\n\`\`\`text\n${text}\n\`\`\`\n`;
  });
  writeFileSync(
    'dist/THIRD-PARTY-LICENSES.md',
    `# Third-party licences\n\nThis build bundles the following packages, tree-shaken to the parts the SDK uses; the ESM build imports those the package depends on instead.\n\n${sections.join('\n')}`,
  );
}

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    // The doctor shares the client's modules (the record schemas, and all they import), so they
    // leave index.js for a chunk: the same code in another order, which the Client app's bundle
    // compresses 32 B less well (minified it is 4 B smaller). Listed second it costs least: last,
    // 60 B (.size-limit.json, the Client app).
    doctor: 'src/doctor/index.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
    oauth: 'src/oauth/index.ts',
    'testing-msw': 'src/testing/msw.ts',
    redis: 'src/redis/index.ts',
    otel: 'src/otel/index.ts',
    record: 'src/record/index.ts',
  },
  // `@internal` members (constructors customers never call, the resources' schema plumbing) stay out
  // of the published types, and with them every zod type.
  dts: { compilerOptions: { stripInternal: true } },
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  // zod is bundled, tree-shaken to the parts the schemas use: its module graph (about 120 files)
  // cost 60 ms of a cold start that now takes 12 (docs/benchmarks.md, "Cold start"). Its licence
  // ships beside the build, in dist/THIRD-PARTY-LICENSES.md.
  noExternal: BUNDLED,
  external: ['msw', '@opentelemetry/api', /^node:/],
  // Keep `node:` on built-in imports: every supported runtime takes it, and Deno and bundlers
  // need it to tell a built-in from a package of the same name.
  removeNodeProtocol: false,
};

export default defineConfig([
  { ...shared, format: ['esm'], onSuccess: writeLicences },
  // Split into shared chunks as ESM is, so that `require('…/webhooks')` and `require('…')` hand
  // out the same classes (`instanceof` holds across entries).
  { ...shared, format: ['cjs'], splitting: true, noExternal: [...BUNDLED, ...ESM_ONLY] },
  // The `employee-recognition` bin: Node only, one file outside `exports`, so no library import
  // reaches it. It loads the SDK through the package's own entries instead of bundling a copy.
  {
    entry: { cli: 'src/cli/index.ts' },
    format: ['esm'],
    platform: 'node',
    target: 'node20',
    external: [/^@employee-recognition\/sdk(\/|$)/],
    removeNodeProtocol: false,
  },
]);
