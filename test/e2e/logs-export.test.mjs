// `logs export` against a real stack (wrangler's dev server with its local D1, queue and R2): after two
// tenants' requests are logged, one tenant's export holds exactly its request ids, on stdout and in --out,
// with the line count on stderr; `logs get` finds a request whose recent index row is gone in the archive by
// its tenant and, without one, names --tenant as the API asks for it.
import assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ROOT } from '../../scripts/stack.mjs';
import { adminCli, startTestStack } from './stack.mjs';

let stack;
const dir = mkdtempSync(join(tmpdir(), 'edgeway-export-'));

before(
  async () => {
    stack = await startTestStack(20087);
  },
  { timeout: 180_000 },
);

after(() => {
  stack?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI as a user runs it; resolves with its exit code and output whatever the code. */
function cli(...args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/admin.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }),
    );
  });
}

/** A tenant with a key, and the ids of `n` requests it made. */
async function tenantWithRequests(name, n) {
  const tenant = await adminCli(stack, 'tenants', 'create', name);
  const key = await adminCli(stack, 'keys', 'create', tenant.id);
  const ids = [];
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${stack.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: `${name} ${i}` }] }),
    });
    assert.equal(res.status, 200);
    await res.text();
    ids.push(res.headers.get('x-edgeway-request-id'));
  }
  return { tenant, ids };
}

/** Polls the logs list (through the queue, the logs reach D1 and R2 a moment after the answer). */
async function waitForLogs(tenantId, count) {
  for (let i = 0; i < 150; i++) {
    const page = await adminCli(stack, 'logs', 'list', '--tenant', tenantId, '--limit', '100');
    if (page.data.length >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.fail(`the logs of tenant ${tenantId} did not arrive`);
}

/** Deletes a request's row from the stack's local D1 (the recent index), through wrangler as a user would. */
function dropIndexRow(id) {
  execFileSync(
    join(ROOT, 'node_modules', '.bin', 'wrangler'),
    [
      'd1',
      'execute',
      'DB',
      '--local',
      '--persist-to',
      stack.persistTo,
      '--command',
      `DELETE FROM request_logs WHERE id = '${id}'`,
    ],
    { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: 'pipe' },
  );
}

const idsOf = (ndjson) =>
  ndjson
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .map((log) => log.id)
    .sort();

test("logs export streams exactly one tenant's request ids, to stdout or a file", async () => {
  const from = new Date(Date.now() - 60_000).toISOString();
  const a = await tenantWithRequests('export-a', 3);
  const b = await tenantWithRequests('export-b', 2);
  await waitForLogs(a.tenant.id, 3);
  await waitForLogs(b.tenant.id, 2);

  const out = await cli('logs', 'export', '--tenant', a.tenant.id, '--from', from);
  assert.equal(out.code, 0, out.stderr);
  assert.deepEqual(idsOf(out.stdout), [...a.ids].sort());
  assert.match(out.stderr, new RegExp(`^3 logs of tenant ${a.tenant.id}\\n$`));

  const file = join(dir, 'b.ndjson');
  const to = String(Date.now() + 60_000);
  const written = await cli(
    'logs',
    'export',
    '--tenant',
    b.tenant.id,
    '--from',
    from,
    '--to',
    to,
    '--out',
    file,
  );
  assert.equal(written.code, 0, written.stderr);
  assert.equal(written.stdout, '');
  assert.deepEqual(idsOf(readFileSync(file, 'utf8')), [...b.ids].sort());
  assert.match(written.stderr, /^2 logs of tenant .* written to /);

  const before = await cli('logs', 'export', '--tenant', a.tenant.id, '--from', from, '--to', from);
  assert.equal(before.code, 1);
  assert.match(before.stderr, /from must be before to\. \(400 /);
  const missing = await cli('logs', 'export', '--from', from);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /give --tenant and --from/);
});

test('logs get finds a request only the archive holds by its tenant, and names --tenant without it', async () => {
  const { tenant, ids } = await tenantWithRequests('get-archive', 1);
  await waitForLogs(tenant.id, 1);
  // Drop its row from the recent index, as index retention does after a few days: only R2 holds it now.
  dropIndexRow(ids[0]);
  assert.deepEqual((await adminCli(stack, 'logs', 'list', '--tenant', tenant.id)).data, []);

  const log = await adminCli(stack, 'logs', 'get', ids[0], '--tenant', tenant.id);
  assert.equal(log.id, ids[0]);
  assert.equal(log.tenant_id, tenant.id);
  assert.equal(log.model, 'mock/echo');

  const asked = await cli('logs', 'get', ids[0]);
  assert.equal(asked.code, 1);
  assert.match(asked.stderr, /give --tenant <tenant_id> to look for it in the archive \(404 log_not_found\)/);
  const elsewhere = await cli('logs', 'get', ids[0], '--tenant', stack.tenantId);
  assert.equal(elsewhere.code, 1, "not under another tenant's archive");
  assert.doesNotMatch(elsewhere.stderr, /--tenant/);
  assert.match(elsewhere.stderr, /\(404 log_not_found\)/);
});
