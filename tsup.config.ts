import { defineConfig, type Options } from 'tsup';

const shared: Options = {
  entry: {
    index: 'src/index.ts',
    webhooks: 'src/webhooks/index.ts',
    testing: 'src/testing/index.ts',
  },
  // `@internal` members (constructors customers never call, the resources' schema plumbing) stay out
  // of the published types, and with them every zod type.
  dts: { compilerOptions: { stripInternal: true } },
  target: 'es2022',
  platform: 'neutral',
  sourcemap: true,
  external: ['zod', 'msw', /^node:/],
  // Keep `node:` on built-in imports: every supported runtime takes it, and Deno and bundlers
  // need it to tell a built-in from a package of the same name.
  removeNodeProtocol: false,
};

export default defineConfig([
  { ...shared, format: ['esm'] },
  // Split into shared chunks as ESM is, so that `require('…/webhooks')` and `require('…')` hand
  // out the same classes (`instanceof` holds across entries).
  { ...shared, format: ['cjs'], splitting: true },
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
