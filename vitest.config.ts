/**
 * The Workers-runtime suites, each in the real Workers runtime: the gateway (with the mock LLM as an
 * auxiliary Worker behind the MOCK_LLM service binding, and D1 migrations applied) and the mock LLM itself.
 *
 * Most gateway files share one runtime (vitest's `isolate: false`): starting a runtime and applying the
 * migrations cost about 8 s a file, which was three quarters of the suite's time. Their tests make their
 * own tenants and keys, so they do not see each other's rows. The files in ISOLATED change or count what
 * is global to the deployment (admin-token throttles per client address, global routes, every log event
 * received) and keep a runtime of their own, as every file did before.
 */
import { cloudflareTest, readD1Migrations } from '@cloudflare/vitest-pool-workers';
import { existsSync } from 'node:fs';
import { build } from 'esbuild';
import { defineConfig } from 'vitest/config';
import { mendPoolWorkers } from './test/support/pool-workers-patch.mjs';

const MOCK_BUNDLE = '.build/mock-llm.js';

/** Gateway test files that need a runtime of their own (see the header). */
const ISOLATED = [
  // Block client addresses (the no-address bucket too) for the admin token's throttle window.
  'test/gateway/admin/access/throttle-integration.test.ts',
  'test/gateway/admin/access/admins-integration.test.ts',
  'test/gateway/dashboard/signin-throttle-integration.test.ts',
  'test/gateway/reliability/fuzz-integration.test.ts',
  // Count (or clear) every log row, batch, key record or global route the deployment has: a shared runtime
  // may still be delivering an earlier file's log batches when they count.
  'test/gateway/logs/burst-integration.test.ts',
  'test/gateway/logs/store-integration.test.ts',
  'test/gateway/logs/analytics-rollups-integration.test.ts',
  'test/gateway/logs/retention-unit.test.ts',
  'test/gateway/logs/consume/consumer-unit.test.ts',
  'test/gateway/logs/consume/dead-letters-unit.test.ts',
  'test/gateway/logs/otel/otel-integration.test.ts',
  'test/gateway/logs/archive/archive-integration.test.ts',
  'test/gateway/storage/key-store-integration.test.ts',
  // Clear the log tables first, then read pages of what is left.
  'test/gateway/logs/tries-integration.test.ts',
  'test/gateway/admin/resources/log-tries-integration.test.ts',
  'test/gateway/admin/resources/logs-integration.test.ts',
  'test/gateway/admin/resources/usage-integration.test.ts',
  'test/gateway/reliability/soak-integration.test.ts',
  'test/gateway/logs/read/reconcile-integration.test.ts',
  'test/gateway/logs/produce/delivery-integration.test.ts',
  'test/gateway/dashboard/routes-integration.test.ts',
];

export default defineConfig(async () => {
  // A moved file would otherwise join the shared runtime unnoticed.
  const gone = ISOLATED.filter((file) => !existsSync(file));
  if (gone.length > 0) throw new Error(`vitest.config.ts: ISOLATED names missing files: ${gone.join(', ')}`);
  mendPoolWorkers();
  await build({
    entryPoints: ['workers/mock-llm/src/index.ts'],
    bundle: true,
    format: 'esm',
    target: 'es2022',
    outfile: MOCK_BUNDLE,
    logLevel: 'warning',
  });
  const migrations = await readD1Migrations('migrations');
  const gateway = () =>
    cloudflareTest({
      wrangler: { configPath: './wrangler.toml' },
      miniflare: {
        bindings: {
          TEST_MIGRATIONS: migrations,
          MOCK_LLM_URL: 'http://mock-llm.internal/v1',
          UPSTREAM_IDLE_TIMEOUT_MS: '300',
          // Leases report back within 0.2 s, so tests that read the ledger wait little.
          LIMITS_LEASE_MS: '200',
          // A log batch that does not fill goes after 50 ms, so a test's waitUntil ends soon.
          LOG_BATCH_WAIT_MS: '50',
          ADMIN_TOKEN: 'test-admin-token',
          // Every native provider pointed at the mock LLM's fake of its API.
          GEMINI_API_KEY: 'test-gemini-key',
          GEMINI_BASE_URL: 'http://mock-llm.internal',
          AZURE_OPENAI_API_KEY: 'test-azure-key',
          AZURE_OPENAI_BASE_URL: 'http://mock-llm.internal',
          AWS_ACCESS_KEY_ID: 'AKIDEXAMPLE',
          AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY',
          AWS_REGION: 'us-east-1',
          BEDROCK_BASE_URL: 'http://mock-llm.internal',
          PROVIDER_KEYS_SECRET: 'test-provider-keys-secret-0123456789abcdef',
          ALERT_SIGNING_SECRET: 'test-alert-signing-secret',
          // A custom row that takes tenants' own keys (BYOK tests); the mock reports the key's hash.
          EDGEWAY_PROVIDERS: JSON.stringify([
            {
              id: 'byok-mock',
              base_url: 'http://mock-llm.internal/v1',
              api_key_secret: 'PROVIDER_KEY_BYOK_MOCK',
              request_id_header: 'x-mock-key-sha256',
            },
            // One-format views of the mock, so requests to them are translated (src/codecs/).
            {
              id: 'claude-only',
              base_url: 'http://mock-llm.internal/v1',
              format: 'anthropic',
              api_key_secret: 'PROVIDER_KEY_CLAUDE_ONLY',
              request_id_header: 'request-id',
            },
            // Nothing listens there: every call fails before its first byte (fallback tests).
            { id: 'dead', base_url: 'http://127.0.0.1:9/v1' },
            // Keyless, with its credential as a fixed header (a self-hosted server behind a proxy).
            {
              id: 'gpt-only',
              base_url: 'http://mock-llm.internal/v1',
              headers: { authorization: 'Bearer fixed-header-key' },
              request_id_header: 'x-request-id',
            },
          ]),
          PROVIDER_KEY_CLAUDE_ONLY: 'claude-only-key',
          PROVIDER_KEY_BYOK_MOCK: 'deployment-key',
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
    });
  return {
    test: {
      projects: [
        {
          plugins: [gateway()],
          test: {
            name: 'gateway',
            include: ['test/gateway/**/*.test.ts'],
            exclude: ISOLATED,
            setupFiles: ['test/gateway/setup.ts'],
            isolate: false,
          },
        },
        {
          plugins: [gateway()],
          test: { name: 'gateway-isolated', include: ISOLATED, setupFiles: ['test/gateway/setup.ts'] },
        },
        {
          plugins: [cloudflareTest({ wrangler: { configPath: './workers/mock-llm/wrangler.toml' } })],
          test: { name: 'mock-llm', include: ['test/mock-llm/**/*.test.ts'] },
        },
      ],
    },
  };
});
