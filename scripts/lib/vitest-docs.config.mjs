// The configuration scripts/check-docs.mjs runs a `<!-- check: vitest -->` block with: the
// repository's aliases (so `@employee-recognition/sdk*` means src/), the block's folder as the
// root, its one file as the test.
import { defineConfig } from 'vitest/config';
import base from '../../vitest.config.ts';

export default defineConfig({
  resolve: base.resolve,
  test: { include: ['*.test.ts'], environment: 'node', testTimeout: 20_000 },
});
