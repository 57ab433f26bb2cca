// Named admins end to end through the CLI, as docs/admins.md tells an operator to set them up: the
// break-glass ADMIN_TOKEN creates a tenant_admin and a viewer, each acts with its own token and is held to
// its role and tenants, and `audit` names who did what, with no secret anywhere in its output.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import { after, before, test } from 'node:test';
import { changedFields, describeChange } from '../../scripts/cli/audit-format.mjs';
import { ROOT } from '../../scripts/stack.mjs';
import { adminCli, startTestStack } from './stack.mjs';

let stack;

before(
  async () => {
    stack = await startTestStack(19987);
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

/** The CLI as break-glass (`token` absent) or as a named admin; resolves with its exit code and output. */
function cliAs(token, ...args) {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['scripts/admin.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: token ?? stack.adminToken } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }),
    );
  });
}

const owner = (...args) => adminCli(stack, ...args);
const as = (token, ...args) => adminCli({ ...stack, adminToken: token }, ...args);

/** A command the admin's role or scope must refuse: exit 1 with the API's 403. */
async function refused(token, ...args) {
  const r = await cliAs(token, ...args, '--json');
  assert.equal(r.code, 1, `${args.join(' ')} was allowed: ${r.stdout}`);
  assert.match(r.stderr, /\(403 forbidden\)/, args.join(' '));
}

const sha256 = (text) => createHash('sha256').update(text).digest('hex');

test('the audit formatter lists changed fields only, before → after, and what a create set', () => {
  const before = { id: 'k1', name: 'a', models: null, updated_at: 1 };
  const after = { id: 'k1', name: 'b', models: ['mock/echo'], updated_at: 2 };
  assert.deepEqual(changedFields(before, after), ['name', 'models']);
  assert.deepEqual(describeChange({ change: 'update', before, after }), [
    'name: "a" → "b"',
    'models: null → ["mock/echo"]',
  ]);
  assert.deepEqual(describeChange({ change: 'create', before: null, after }), [
    'name="b"  models=["mock/echo"]',
  ]);
  assert.deepEqual(describeChange({ change: 'delete', before, after: null }), []);
});

test('a tenant_admin and a viewer act with their own tokens, held to their role and tenants', async () => {
  const a = await owner('tenants', 'create', 'admins-a');
  const b = await owner('tenants', 'create', 'admins-b');
  const bKey = await owner('keys', 'create', b.id, '--name', 'b-key');

  const ta = await owner('admins', 'create', 'alice', '--role', 'tenant_admin', '--tenant', a.id);
  assert.match(ta.token, /^ewadm_/);
  assert.deepEqual(ta.tenant_ids, [a.id]);
  const viewer = await owner('admins', 'create', 'victor', '--role', 'viewer');
  const readable = await cliAs(undefined, 'admins', 'create', 'olga', '--role', 'admin');
  assert.equal(readable.code, 0, readable.stderr);
  assert.match(readable.stdout, /ewadm_\S+\n\nThis token is shown once; store it now\./);

  assert.deepEqual(await as(ta.token, 'me'), {
    id: ta.id,
    name: 'alice',
    role: 'tenant_admin',
    tenant_ids: [a.id],
  });
  assert.equal((await as(viewer.token, 'whoami')).role, 'viewer');

  // The tenant_admin manages keys of its tenant, nothing of another tenant's, and no tenants.
  const aKey = await as(ta.token, 'keys', 'create', a.id, '--name', 'a-key');
  assert.equal(aKey.tenant_id, a.id);
  assert.deepEqual(
    (await as(ta.token, 'tenants', 'list')).map((t) => t.id),
    [a.id],
  );
  await refused(ta.token, 'keys', 'create', b.id);
  await refused(ta.token, 'keys', 'get', bKey.id);
  await refused(ta.token, 'keys', 'revoke', bKey.id);
  await refused(ta.token, 'tenants', 'create', 'not-mine');
  await refused(ta.token, 'admins', 'list');
  await refused(ta.token, 'audit');

  // The viewer reads everything and changes nothing.
  assert.ok((await as(viewer.token, 'tenants', 'list')).some((t) => t.id === b.id));
  assert.equal((await as(viewer.token, 'keys', 'list', a.id))[0].id, aKey.id);
  await refused(viewer.token, 'tenants', 'create', 'viewer-made');
  await refused(viewer.token, 'keys', 'revoke', aKey.id);
  await refused(viewer.token, 'admins', 'create', 'mallory', '--role', 'owner');

  // The audit names each change's admin and holds no secret, hash or token.
  const audit = await cliAs(undefined, 'audit', '--all', '--json');
  assert.equal(audit.code, 0, audit.stderr);
  const entries = JSON.parse(audit.stdout).data;
  const find = (resource, id) => entries.find((e) => e.resource === resource && e.resource_id === id);
  assert.equal(find('tenant', a.id).actor.id, 'break-glass');
  assert.equal(find('admin', ta.id).actor.id, 'break-glass');
  assert.deepEqual(find('key', aKey.id).actor, { id: ta.id, name: 'alice' });
  assert.equal(find('key', aKey.id).operation, 'POST /admin/keys');
  assert.equal(find('key', aKey.id).tenant_id, a.id);
  assert.ok(!entries.some((e) => e.actor.id === viewer.id), 'the viewer changed nothing');
  for (const secret of [aKey.key, bKey.key, ta.token, viewer.token]) {
    assert.ok(!audit.stdout.includes(secret), 'a secret in the audit');
    assert.ok(!audit.stdout.includes(sha256(secret)), "a secret's hash in the audit");
  }
  assert.doesNotMatch(audit.stdout, /_hash"|ciphertext/);

  // A tenant_admin reads its tenant's audit rows, and only those.
  const own = await as(ta.token, 'audit', '--tenant', a.id);
  assert.ok(own.data.length >= 2);
  assert.ok(own.data.every((e) => e.tenant_id === a.id));
  await refused(ta.token, 'audit', '--tenant', b.id);
});

test('update, rotate and delete take effect on the next call, and the audit shows before → after', async () => {
  const t = await owner('tenants', 'create', 'admins-c');
  const ta = await owner('admins', 'create', 'carol', '--role', 'tenant_admin', '--tenant', t.id);

  const t2 = await owner('tenants', 'create', 'admins-d');
  const moved = await owner('admins', 'update', ta.id, '--tenant', t2.id, '--tenant', t.id);
  assert.deepEqual(moved.tenant_ids, [t2.id, t.id], '--tenant repeats, and replaces the tenants');
  assert.deepEqual((await as(ta.token, 'me')).tenant_ids, [t2.id, t.id]);

  const disabled = await owner('admins', 'update', ta.id, '--disable');
  assert.equal(disabled.status, 'disabled');
  assert.equal((await cliAs(ta.token, 'me', '--json')).code, 1, 'a disabled admin is refused');
  await owner('admins', 'update', ta.id, '--enable', '--role', 'viewer', '--name', 'carol-v');
  assert.equal((await as(ta.token, 'me')).role, 'viewer');

  const rotated = await owner('admins', 'rotate', ta.id);
  assert.notEqual(rotated.token, ta.token);
  const old = await cliAs(ta.token, 'me', '--json');
  assert.equal(old.code, 1);
  assert.match(old.stderr, /\(401 invalid_admin_token\)/);
  assert.equal((await as(rotated.token, 'me')).name, 'carol-v');

  const text = await cliAs(undefined, 'audit', '--resource', 'admin', '--resource-id', ta.id);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /status: "active" → "disabled"/);
  assert.match(text.stdout, /role: "tenant_admin" → "viewer"/);
  assert.match(text.stdout, /name: "carol" → "carol-v"/);
  assert.match(text.stdout, /token_hint: "ewadm_…[\w-]{4}" → "ewadm_…[\w-]{4}"/);
  assert.match(text.stdout, /break-glass \(ADMIN_TOKEN\) \[break-glass\]\s+update admin/);
  assert.ok(!text.stdout.includes(rotated.token));

  const deleted = await owner('admins', 'delete', ta.id);
  assert.equal(deleted.id, ta.id);
  assert.equal((await cliAs(rotated.token, 'me', '--json')).code, 1, 'a deleted admin is refused');
  assert.deepEqual(
    (await owner('audit', '--resource', 'admin', '--resource-id', ta.id, '--limit', '1')).data.map(
      (e) => e.change,
    ),
    ['delete'],
    'its audit rows stay, the deletion last',
  );
  const window = await owner(
    'audit',
    '--from',
    new Date(0).toISOString(),
    '--to',
    String(Date.now() + 60_000),
  );
  assert.ok(window.data.length > 0);
  assert.equal((await owner('audit', '--to', '0')).data.length, 0);
});
