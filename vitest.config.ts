/**
 * Two projects, each in the real Workers runtime: the gateway (with the mock
 * LLM as an auxiliary Worker behind the MOCK_LLM service binding, and D1
 * migrations applied) and the mock LLM itself.
 */
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { build } from 'esbuild';
import { defineConfig } from 'vitest/config';

const MOCK_BUNDLE = '.build/mock-llm.js';

export default defineConfig(async () => {
  await build({
    entryPoints: ['workers/mock-llm/src/index.ts'],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: MOCK_BUNDLE,
    logLevel: 'warning',
  });
  const migrations = await readD1Migrations('migrations');
  return {
    test: {
      projects: [
        {
          plugins: [
            cloudflareTest({
              wrangler: { configPath: './wrangler.toml' },
              miniflare: {
                bindings: {
                  TEST_MIGRATIONS: migrations,
                  MOCK_LLM_URL: 'http://mock-llm.internal/v1',
                  UPSTREAM_IDLE_TIMEOUT_MS: '300',
                  ADMIN_TOKEN: 'test-admin-token',
                },
                serviceBindings: { MOCK_LLM: 'mock-llm' },
                workers: [
                  {
                    name: 'mock-llm',
                    modules: true,
                    scriptPath: MOCK_BUNDLE,
                    compatibilityDate: '2026-04-01',
                  },
                ],
              },
            }),
          ],
          test: {
            name: 'gateway',
            include: ['test/gateway/**/*.test.ts'],
            setupFiles: ['test/gateway/setup.ts'],
          },
        },
        {
          plugins: [cloudflareTest({ wrangler: { configPath: './workers/mock-llm/wrangler.toml' } })],
          test: { name: 'mock-llm', include: ['test/mock-llm/**/*.test.ts'] },
        },
      ],
    },
  };
});
