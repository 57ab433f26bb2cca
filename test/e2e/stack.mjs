// Starts a throwaway stack for one e2e test file: fresh D1/KV state in a temp dir, own ports.
// Gives startStack's url, mockUrl and pids (the two Worker processes, for tests that watch them)
// plus the admin token, a dev key and its tenant, and persistTo (its state directory).
import { execFile } from 'node:child_process';
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
