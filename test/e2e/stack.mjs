// Starts a throwaway stack for one e2e test file: fresh D1/KV state in a temp dir, own ports.
// Gives startStack's url, mockUrl and pids (the two Worker processes, for tests that watch them)
// plus the admin token, a dev key and its tenant, and persistTo (its state directory).
import { execFile, execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ensureDevKey, migrate, ROOT, startStack } from '../../scripts/stack.mjs';

/** `vars` are extra plain-text bindings for the gateway (e.g. providers pointed at the mock's fakes). */
export async function startTestStack(portBase, vars = {}) {
  const persistTo = mkdtempSync(join(tmpdir(), 'edgeway-e2e-'));
  const adminToken = `test_${randomBytes(12).toString('hex')}`;
  migrate(persistTo);
  const stack = await startStack({
    port: portBase,
    mockPort: portBase + 1,
    persistTo,
    vars: { ADMIN_TOKEN: adminToken, ...vars },
    quiet: true,
  });
  try {
    const dev = await ensureDevKey(stack.url, adminToken, join(persistTo, 'dev-key.json'));
    return {
      ...stack,
      persistTo,
      adminToken,
      key: dev.key,
      tenantId: dev.tenant_id,
      stop() {
        stack.stop();
        rmSync(persistTo, { recursive: true, force: true });
      },
    };
  } catch (err) {
    stack.stop();
    throw err;
  }
}

/** Runs the admin CLI (`scripts/admin.mjs … --json`) against a test stack and parses its JSON answer. */
export async function adminCli(stack, ...args) {
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/admin.mjs', ...args, '--json'], {
    cwd: ROOT,
    env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken },
  });
  return JSON.parse(stdout);
}

/** Runs SQL on a test stack's local D1 through wrangler, as a user would (e.g. to seed usage rollups). */
export function d1Execute(stack, sql) {
  execFileSync(
    join(ROOT, 'node_modules', '.bin', 'wrangler'),
    ['d1', 'execute', 'DB', '--local', '--persist-to', stack.persistTo, '--command', sql],
    { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: 'pipe' },
  );
}

/**
 * SQL that writes one tenant's per-end-user and per-tag rollup rows for `day`: what the log consumer writes
 * from real requests (tested from the consumer through the API in
 * test/gateway/admin/resources/end-user-usage-integration.test.ts), for tests of the CLI and the dashboard.
 * `users`: [end_user, requests, cost_usd]; `tags`: [tag, value, requests, cost_usd].
 */
export function usageRollupSql(tenantId, day, users, tags) {
  const counters =
    'requests, input_tokens, output_tokens, cached_tokens, cost_usd, cache_hits, saved_tokens, saved_usd, errors';
  const q = (text) => `'${String(text).replaceAll("'", "''")}'`;
  const figures = (n, usd) => `${n}, ${n * 10}, ${n}, 0, ${usd}, 0, 0, 0, 0`;
  return [
    `INSERT INTO usage_end_users_daily (tenant_id, day, end_user, ${counters}) VALUES ` +
      users.map(([u, n, usd]) => `(${q(tenantId)}, ${q(day)}, ${q(u)}, ${figures(n, usd)})`).join(', '),
    `INSERT INTO usage_tags_daily (tenant_id, day, tag, value, ${counters}) VALUES ` +
      tags
        .map(([t, v, n, usd]) => `(${q(tenantId)}, ${q(day)}, ${q(t)}, ${q(v)}, ${figures(n, usd)})`)
        .join(', '),
  ].join('; ');
}
