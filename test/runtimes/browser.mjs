// The page's side of the smoke test: scripts/test-runtimes.mjs bundles this for the browser,
// loads it in headless Chromium and calls `runSmoke` with the mock server's settings.
import { runSmoke } from './smoke.mjs';

globalThis.runSmoke = (config) => runSmoke(config, (line) => console.log(line));
