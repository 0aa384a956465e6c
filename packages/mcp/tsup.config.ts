import { defineConfig } from 'tsup';

// The SDK and the MCP SDK are dependencies, loaded from node_modules and never bundled: the client
// here is the customer's own copy of the SDK. The bin and the entry share one chunk.
export default defineConfig({
  entry: { index: 'src/index.ts', cli: 'src/cli.ts' },
  format: ['esm'],
  platform: 'node',
  target: 'node20',
  dts: { entry: { index: 'src/index.ts' } },
  sourcemap: true,
  removeNodeProtocol: false,
});
