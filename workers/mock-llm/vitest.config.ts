// Standalone test config for the mock (the root config's "mock-llm" project runs the same files).
// Run from the repo root: npx vitest run --config workers/mock-llm/vitest.config.ts
import { fileURLToPath } from 'node:url';
import { cloudflareTest } from '@cloudflare/vitest-pool-workers';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  // Paths below are relative to this folder, wherever vitest is started from.
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [cloudflareTest({ wrangler: { configPath: './wrangler.toml' } })],
  test: { include: ['../../test/mock-llm/**/*.test.ts'] },
});
