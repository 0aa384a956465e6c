import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (path: string) => fileURLToPath(new URL(`./src/${path}`, import.meta.url));

export default defineConfig({
  resolve: {
    // Tests and examples import the package by its public name; here that name means the sources.
    alias: [
      { find: /^@employee-recognition\/sdk\/webhooks$/, replacement: src('webhooks/index.ts') },
      { find: /^@employee-recognition\/sdk\/testing$/, replacement: src('testing/index.ts') },
      { find: /^@employee-recognition\/sdk\/oauth$/, replacement: src('oauth/index.ts') },
      { find: /^@employee-recognition\/sdk\/testing\/msw$/, replacement: src('testing/msw.ts') },
      { find: /^@employee-recognition\/sdk\/redis$/, replacement: src('redis/index.ts') },
      { find: /^@employee-recognition\/sdk\/otel$/, replacement: src('otel/index.ts') },
      { find: /^@employee-recognition\/sdk\/record$/, replacement: src('record/index.ts') },
      { find: /^@employee-recognition\/sdk\/doctor$/, replacement: src('doctor/index.ts') },
      { find: /^@employee-recognition\/sdk$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts', 'packages/mcp/test/**/*.test.ts'],
    environment: 'node',
    restoreMocks: true,
    unstubEnvs: true,
    testTimeout: 20_000,
    setupFiles: ['test/setup/log-scan.ts'],
  },
});
