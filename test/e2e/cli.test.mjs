// The admin CLI covers the whole admin API: its command table is checked against the OpenAPI document the
// running gateway serves (both ways, so a new admin route without a command fails here), and the commands of
// each area are run against a real stack with --json (raw API JSON out) and, for some, without it.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { COMMANDS, TABLE_COMMANDS } from '../../scripts/cli/commands.mjs';
import { ROOT } from '../../scripts/stack.mjs';
import { d1Execute, startTestStack, usageRollupSql } from './stack.mjs';

let stack;

before(
  async () => {
    stack = await startTestStack(19587, {
      PROVIDER_KEYS_SECRET: 'e2e-cli-provider-keys-secret-0123456789abcdef',
      EDGEWAY_PROVIDERS: JSON.stringify([
        { id: 'byok', base_url: 'http://127.0.0.1:19588/v1', api_key_secret: 'PROVIDER_KEY_BYOK' },
      ]),
      PROVIDER_KEY_BYOK: 'the-deployment-key',
      ALERT_SIGNING_SECRET: 'e2e-cli-alert-signing-secret',
    });
  },
  { timeout: 180_000 },
);

after(() => stack?.stop());

/** The CLI as a user runs it; resolves with its exit code and output whatever the code. */
function cli(args, input = '', env = {}) {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      ['scripts/admin.mjs', ...args],
      { cwd: ROOT, env: { ...process.env, EDGEWAY_URL: stack.url, ADMIN_TOKEN: stack.adminToken, ...env } },
      (err, stdout, stderr) => resolve({ code: err ? err.code : 0, stdout, stderr }),
    );
    child.stdin.end(input);
  });
}

/** A command with --json that must succeed; its stdout parsed. */
async function json(...args) {
  const r = await cli([...args, '--json']);
  assert.equal(r.code, 0, `${args.join(' ')} failed: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

test('every admin API operation has a CLI command, and every command calls an operation that exists', async () => {
  const doc = await (await fetch(`${stack.url}/admin/openapi.json`)).json();
  const documented = new Set(
    Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
    ),
  );
  const called = new Set(COMMANDS.flatMap((c) => c.operations));
  assert.deepEqual(
    [...documented].filter((op) => !called.has(op)),
    [],
    'operations without a CLI command',
  );
  assert.deepEqual(
    [...called].filter((op) => !documented.has(op)),
    [],
    'commands naming unknown operations',
  );

  // Commands without `run` are admin.mjs's own `case`s, and every such case is in the table.
  const source = readFileSync(join(ROOT, 'scripts/admin.mjs'), 'utf8');
  const cases = [...source.matchAll(/^ {2}case '([a-z -]+)':/gm)].map(([, name]) => name).sort();
  const ownNames = COMMANDS.filter((c) => !c.run)
    .map((c) => c.name)
    .sort();
  assert.deepEqual(cases, ownNames, "admin.mjs's commands and the table's differ");

  const help = await cli(['help']);
  assert.equal(help.code, 0);
  for (const c of TABLE_COMMANDS) assert.ok(help.stdout.includes(c.usage), `help lacks ${c.name}`);
});

test('tenants update and keys update change the fields given, and refuse an empty change', async () => {
  const tenant = await json('tenants', 'create', 'cli-updates');
  assert.equal((await json('tenants', 'update', tenant.id, '--name', 'cli-renamed')).name, 'cli-renamed');
  const kept = await json('tenants', 'update', tenant.id, '--responses-retention', '7');
  assert.equal(kept.responses_retention_days, 7);
  const reset = await json('tenants', 'update', tenant.id, '--responses-retention', 'default');
  assert.equal(reset.responses_retention_days, null);

  const key = await json('keys', 'create', tenant.id, '--name', 'before');
  const updated = await json(
    'keys',
    'update',
    key.id,
    '--name',
    'after',
    '--models',
    'mock/echo,mock/mock-small',
    '--log-payload',
    'on',
  );
  assert.equal(updated.name, 'after');
  assert.deepEqual(updated.models, ['mock/echo', 'mock/mock-small']);
  assert.equal(updated.log_payload, true);
  assert.equal((await json('keys', 'get', key.id)).name, 'after');

  const empty = await cli(['keys', 'update', key.id, '--json']);
  assert.equal(empty.code, 1);
  assert.match(empty.stderr, /nothing to change/);
  const refused = await cli(['keys', 'update', key.id, '--expires', '2001-01-01', '--json']);
  assert.equal(refused.code, 1, 'the API refuses an expiry in the past');
  assert.match(refused.stderr, /\(400 /);

  // What a translation that would drop fields does: per key and per tenant.
  const strict = await json('keys', 'create', tenant.id, '--on-unsupported', 'refuse');
  assert.equal(strict.on_unsupported, 'refuse');
  assert.equal((await json('keys', 'update', strict.id, '--on-unsupported', 'drop')).on_unsupported, 'drop');
  assert.equal(
    (await json('tenants', 'update', tenant.id, '--on-unsupported', 'refuse')).on_unsupported,
    'refuse',
  );
  const wrong = await cli(['keys', 'update', strict.id, '--on-unsupported', 'sometimes', '--json']);
  assert.equal(wrong.code, 1, 'the API refuses a value other than drop or refuse');
  assert.match(wrong.stderr, /on_unsupported/);
});

test('limits set merges into the stored limits, limits get reports them beside use', async () => {
  const tenant = await json('tenants', 'create', 'cli-limits');
  const key = await json('keys', 'create', tenant.id);
  await json('limits', 'set', '--key', key.id, '--rpm', '60', '--usd-day', '2');
  const saved = await json('limits', 'set', '--key', key.id, '--tpm', '1000');
  assert.deepEqual(saved.limits, { rpm: 60, tpm: 1000 }, 'an earlier limit is kept');
  assert.deepEqual(saved.budgets, { usd: { day: 2 } });

  const report = await json('limits', 'get', '--key', key.id);
  assert.equal(report.scope, 'key');
  assert.equal(report.requests.limit, 60);
  assert.equal(report.budget_usage.usd.day.limit, 2);

  const removed = await json('limits', 'set', '--key', key.id, '--rpm', 'none', '--usd-day', 'none');
  assert.deepEqual(removed.limits, { tpm: 1000 });
  assert.deepEqual(removed.budgets, {});

  await json('limits', 'set', '--tenant', tenant.id, '--concurrent', '3');
  assert.equal((await json('limits', 'get', '--tenant', tenant.id)).concurrent.limit, 3);

  const readable = await cli(['limits', 'get', '--key', key.id]);
  assert.equal(readable.code, 0);
  assert.match(readable.stdout, /tokens \/ minute\s+1000\s+0\s+1000/);

  const bad = await cli(['limits', 'set', '--key', key.id, '--rpm', 'many']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /--rpm: expected a number/);
  const negative = await cli(['limits', 'set', '--key', key.id, '--rpm=-5']);
  assert.equal(negative.code, 1, 'the API refuses a negative limit');
  assert.match(negative.stderr, /\(400 /);
  assert.equal((await cli(['limits', 'get', '--tenant', tenant.id, '--key', key.id])).code, 1);
});

test('limits set edits end-user defaults, model and tag rules and downgrades; end-users set, get, list and delete overrides', async () => {
  const tenant = await json('tenants', 'create', 'cli-scopes');
  const key = await json('keys', 'create', tenant.id);
  const def = await json(
    'limits',
    'set',
    '--tenant',
    tenant.id,
    '--end-user-default',
    '--usd-day',
    '1',
    '--requests-day',
    '50',
  );
  assert.deepEqual(def.end_users, { limits: {}, budgets: { usd: { day: 1 }, requests: { day: 50 } } });
  const model = await json(
    'limits',
    'set',
    '--tenant',
    tenant.id,
    '--model',
    'openai/*',
    '--rpm',
    '100',
    '--usd-day',
    '5',
  );
  assert.deepEqual(model.model_limits, [
    { match: 'openai/*', limits: { rpm: 100 }, budgets: { usd: { day: 5 } } },
  ]);
  const again = await json('limits', 'set', '--tenant', tenant.id, '--model', 'openai/*', '--tpm', '9000');
  assert.deepEqual(
    again.model_limits[0].limits,
    { rpm: 100, tpm: 9000 },
    'a rule is merged into, not replaced',
  );
  const tag = await json(
    'limits',
    'set',
    '--tenant',
    tenant.id,
    '--tag',
    'team=search',
    '--usd-month',
    '500',
    '--tag-keys',
    'team,feature',
  );
  assert.deepEqual(tag.tag_limits, [
    { tag: 'team', value: 'search', limits: {}, budgets: { usd: { month: 500 } } },
  ]);
  assert.deepEqual(tag.tag_keys, ['team', 'feature']);
  assert.deepEqual(tag.end_users.budgets.requests, { day: 50 }, 'other scopes are kept');
  const keyRule = await json('limits', 'set', '--key', key.id, '--model', 'mock/*', '--requests-total', '7');
  assert.deepEqual(keyRule.model_limits, [
    { match: 'mock/*', limits: {}, budgets: { requests: { total: 7 } } },
  ]);

  const noRoute = await cli(['limits', 'set', '--tenant', tenant.id, '--downgrade', '90:nowhere']);
  assert.equal(noRoute.code, 1, 'a downgrade to a route that does not exist is refused');
  assert.match(noRoute.stderr, /downgrade\.route.*nowhere.*\(400 unknown_route\)/);
  const onKey = await cli(['limits', 'set', '--key', key.id, '--tag', 'team=x', '--rpm', '1']);
  assert.equal(onKey.code, 1);
  assert.match(onKey.stderr, /--tag are set on a tenant/);

  const removed = await json('limits', 'set', '--tenant', tenant.id, '--model', 'openai/*', '--remove');
  assert.deepEqual(removed.model_limits, []);

  const readable = await cli(['limits', 'get', '--tenant', tenant.id]);
  assert.equal(readable.code, 0, readable.stderr);
  assert.match(readable.stdout, /: ok\n/);
  assert.match(readable.stdout, /end users\s+usd\/day 1 · requests\/day 50/);
  assert.match(readable.stdout, /tag team=search\s+usd\/month 500/);
  assert.match(readable.stdout, /requests budget, total/);

  const set = await json(
    'end-users',
    'set',
    '--tenant',
    tenant.id,
    '--user',
    'alice@example.com',
    '--usd-day',
    '20',
    '--rpm',
    '5',
  );
  assert.deepEqual(set.override, { limits: { rpm: 5 }, budgets: { usd: { day: 20 } } });
  assert.deepEqual(set.effective, set.override, 'the override is in force');
  assert.equal(set.usage.status, 'ok');
  const merged = await json(
    'end-users',
    'set',
    '--tenant',
    tenant.id,
    '--user',
    'alice@example.com',
    '--requests-day',
    '3',
  );
  assert.deepEqual(merged.override.budgets, { usd: { day: 20 }, requests: { day: 3 } });
  await json('end-users', 'set', '--tenant', tenant.id, '--user', 'bob/1', '--tpm', '10');
  const list = await json('end-users', 'list', '--tenant', tenant.id);
  assert.deepEqual(
    list.data.map((o) => o.user),
    ['alice@example.com', 'bob/1'],
  );
  const shown = await cli(['end-users', 'get', '--tenant', tenant.id, '--user', 'bob/1']);
  assert.equal(shown.code, 0, shown.stderr);
  assert.match(shown.stdout, /override\s+tpm 10/);
  assert.match(shown.stdout, /tenant default\s+usd\/day 1 · requests\/day 50/);
  const gone = await json('end-users', 'delete', '--tenant', tenant.id, '--user', 'bob/1');
  assert.equal(gone.override, null);
  assert.deepEqual(gone.effective, def.end_users, "back to the tenant's default");
  assert.equal((await cli(['end-users', 'get', '--tenant', tenant.id])).code, 1, '--user is required');
});

test('pricing set, get, list and delete an override of a model id with a slash', async () => {
  const set = await json(
    'pricing',
    'set',
    'mock/priced',
    '--input',
    '1.5',
    '--output',
    '3',
    '--cache-write',
    '1.875',
  );
  assert.deepEqual(set, {
    model: 'mock/priced',
    input: 1.5,
    output: 3,
    cached: 1.5,
    cache_write: 1.875,
    cache_write_1h: 1.875,
    source: 'override',
  });
  assert.equal((await json('pricing', 'get', 'mock/priced')).source, 'override');
  assert.deepEqual((await json('pricing', 'list')).overrides['mock/priced'], {
    input: 1.5,
    output: 3,
    cached: 1.5,
    cache_write: 1.875,
    cache_write_1h: 1.875,
  });
  assert.notEqual((await json('pricing', 'delete', 'mock/priced')).source, 'override');
  assert.equal((await json('pricing', 'list')).overrides['mock/priced'], undefined);

  const missing = await cli(['pricing', 'set', 'mock/priced', '--input', '1']);
  assert.equal(missing.code, 1);
  assert.match(missing.stderr, /give --input and --output/);
});

test('logs list finds a request by key, logs get shows it, usage counts it', async () => {
  const tenant = await json('tenants', 'create', 'cli-logs');
  const key = await json('keys', 'create', tenant.id);
  const res = await fetch(`${stack.url}/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'mock/echo', messages: [{ role: 'user', content: 'logged' }] }),
  });
  assert.equal(res.status, 200);
  await res.text();
  const requestId = res.headers.get('x-edgeway-request-id');

  // Logs reach D1 through the queue: poll until the event is stored.
  let page;
  for (let i = 0; i < 100; i++) {
    page = await json('logs', 'list', '--key', key.id, '--limit', '5');
    if (page.data.length) break;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  assert.deepEqual(
    page.data.map((l) => l.id),
    [requestId],
  );
  // The search flags: one request by id, a model prefix, an error code (none here).
  const found = await json('logs', 'list', '--request-id', requestId, '--model', 'mock/ec*');
  assert.deepEqual(
    found.data.map((l) => [l.id, l.tenant_name]),
    [[requestId, 'cli-logs']],
  );
  assert.equal((await json('logs', 'list', '--key', key.id, '--error-code', 'rate_limited')).data.length, 0);
  const log = await json('logs', 'get', requestId, '--tenant', tenant.id);
  assert.equal(log.model, 'mock/echo');
  assert.equal(log.key_id, key.id);
  assert.equal(
    (await cli(['logs', 'get', requestId, '--tenant', stack.tenantId])).code,
    1,
    "another tenant's log",
  );
  const badStatus = await cli(['logs', 'list', '--status', 'teapot']);
  assert.equal(badStatus.code, 1);
  assert.match(badStatus.stderr, /\(400 /);

  const usage = await json('usage', '--tenant', tenant.id);
  assert.equal(usage.totals.requests, 1);
});

test('usage --by end-user, --by tag and --by model: top N by spend, prefix search, totals of all', async () => {
  const tenant = await json('tenants', 'create', 'cli-end-users');
  const day = new Date().toISOString().slice(0, 10);
  // Rollup rows straight into the stack's D1: this test is about the CLI and the API it calls.
  d1Execute(
    stack,
    usageRollupSql(
      tenant.id,
      day,
      [
        ['u_ann', 3, 0.3],
        ['u_abe', 5, 1.5],
        ['u_bo', 2, 0.9],
        ['svc_x', 1, 0.05],
      ],
      [
        ['team', 'search', 4, 2.0],
        ['team', 'ads', 2, 0.5],
        ['feature', 'chat', 6, 2.5],
      ],
    ),
  );

  const top = await json('usage', '--by', 'end-user', '--tenant', tenant.id, '--top', '2');
  assert.deepEqual(
    top.data.map((d) => [d.end_user, d.requests, d.cost_usd]),
    [
      ['u_abe', 5, 1.5],
      ['u_bo', 2, 0.9],
    ],
  );
  assert.equal(top.groups, 4);
  assert.equal(top.has_more, true);
  assert.equal(top.totals.requests, 11);

  const searched = await json('usage', '--by', 'end-user', '--tenant', tenant.id, '--search', 'u_a');
  assert.deepEqual(
    searched.data.map((d) => d.end_user),
    ['u_abe', 'u_ann'],
  );
  assert.equal(searched.totals.requests, 8);

  const team = await json('usage', '--by', 'tag', '--tag', 'team', '--tenant', tenant.id);
  assert.deepEqual(
    team.data.map((d) => [d.tag, d.value, d.requests]),
    [
      ['team', 'search', 4],
      ['team', 'ads', 2],
    ],
  );
  assert.deepEqual(team.tag_keys, ['feature', 'team']);
  assert.equal((await json('usage', '--by', 'model', '--tenant', tenant.id)).group_by, 'model');

  const text = await cli(['usage', '--by', 'end-user', '--tenant', tenant.id, '--top', '2']);
  assert.equal(text.code, 0, text.stderr);
  assert.match(text.stdout, /^END USER\s+REQUESTS/m);
  assert.match(text.stdout, /^u_abe\s+5\s/m);
  assert.match(text.stdout, /top 2 of 4 end users; totals cover all 4/);
  assert.doesNotMatch(text.stdout, /svc_x/);
  const tags = await cli(['usage', '--by', 'tag', '--tenant', tenant.id]);
  assert.match(tags.stdout, /^feature\s+chat\s+6\s/m);
  assert.match(tags.stdout, /tag keys: feature, team/);

  const noTenant = await cli(['usage', '--by', 'end-user']);
  assert.equal(noTenant.code, 1);
  assert.match(noTenant.stderr, /needs --tenant/);
  const badBy = await cli(['usage', '--by', 'week']);
  assert.equal(badBy.code, 1);
  const tooMany = await cli(['usage', '--by', 'end-user', '--tenant', tenant.id, '--top', '501']);
  assert.equal(tooMany.code, 1);
  assert.match(tooMany.stderr, /\(400 /);
});

test('routes and provider-keys print JSON with --json, deletions included', async () => {
  const spec = { strategy: 'fallback', targets: [{ model: 'mock/echo' }] };
  const r = await cli(['routes', 'create', 'cli-route', '--json'], JSON.stringify(spec));
  assert.equal(r.code, 0, r.stderr);
  const route = JSON.parse(r.stdout);
  assert.ok((await json('routes', 'list', '--global')).some((x) => x.id === route.id));
  assert.equal((await json('routes', 'get', route.id)).name, 'cli-route');
  assert.deepEqual(await json('routes', 'delete', route.id), { id: route.id, deleted: true });

  const tenant = await json('tenants', 'create', 'cli-byok');
  const put = await cli(['provider-keys', 'set', tenant.id, 'byok', '--json'], 'sk-cli-own-key\n');
  assert.equal(put.code, 0, put.stderr);
  assert.equal(JSON.parse(put.stdout).provider, 'byok');
  assert.deepEqual(
    (await json('provider-keys', 'list', tenant.id)).map((k) => k.provider),
    ['byok'],
  );
  assert.deepEqual(await json('provider-keys', 'delete', tenant.id, 'byok'), {
    tenant_id: tenant.id,
    provider: 'byok',
    deleted: true,
  });
  assert.deepEqual(await json('provider-keys', 'list', tenant.id), []);
});

test("alerts list and alerts secret read a tenant's budget alerts and its webhook secret", async () => {
  const tenant = await json('tenants', 'create', 'cli-alerts');
  assert.deepEqual(await json('alerts', 'list', tenant.id, '--limit', '10'), { data: [] });
  const { secret } = await json('alerts', 'secret', tenant.id);
  assert.equal(typeof secret, 'string');
  assert.ok(secret.length >= 32);
  assert.notEqual((await json('alerts', 'secret', stack.tenantId)).secret, secret, 'one secret per tenant');

  const unknown = await cli(['alerts', 'list', 'ten_missing', '--json']);
  assert.equal(unknown.code, 1);
  assert.match(unknown.stderr, /\(404 /);
});

test('mcp-servers add, list, get, update, remove and token set/remove; --mcp-… flags on tenants and keys', async () => {
  const tenant = await json('tenants', 'create', 'cli-mcp');
  const secret = 'ghp_cliSecret0123456789abcdefWXYZ';
  const global = await json(
    'mcp-servers',
    'add',
    '--namespace',
    `cli-${Date.now().toString(36)}`,
    '--url',
    'https://mcp.example.com/mcp',
    '--secret',
    secret,
  );
  assert.deepEqual(global.auth, { type: 'bearer', header: null, hint: 'ghp…WXYZ' });
  const own = await cli(
    ['mcp-servers', 'add', '--tenant', tenant.id, '--namespace', 'own', '--url', 'https://own.example/mcp'],
    '',
  );
  assert.equal(own.code, 0, own.stderr);
  assert.match(own.stdout, /Registered MCP server/);
  assert.ok(!own.stdout.includes(secret));

  const offered = await json('mcp-servers', 'list', '--tenant', tenant.id);
  assert.ok(offered.some((s) => s.id === global.id && s.scope === 'global'));
  assert.ok(offered.some((s) => s.namespace === 'own' && s.tenant_id === tenant.id));
  const table = await cli(['mcp-servers', 'list']);
  assert.match(table.stdout, /NAMESPACE/);
  assert.ok(!table.stdout.includes(secret));

  // --header alone turns the stored bearer into a named header, keeping the secret.
  const header = await json(
    'mcp-servers',
    'update',
    global.id,
    '--header',
    'X-Api-Key',
    '--timeout-ms',
    '5000',
  );
  assert.deepEqual(header.auth, { type: 'header', header: 'X-Api-Key', hint: 'ghp…WXYZ' });
  assert.equal(header.timeout_ms, 5000);
  const tokenType = await json('mcp-servers', 'update', global.id, '--auth', 'tenant_token');
  assert.deepEqual(tokenType.auth, { type: 'tenant_token', header: 'X-Api-Key', hint: null });

  const token = await cli(
    ['mcp-servers', 'token', 'set', global.id, '--tenant', tenant.id, '--token-env', 'MCP_T', '--json'],
    '',
    { MCP_T: 'tenantToken-0123456789-QRST' },
  );
  assert.equal(token.code, 0, token.stderr);
  assert.equal(JSON.parse(token.stdout).hint, 'ten…QRST');
  assert.equal((await json('mcp-servers', 'get', global.id, '--tenant', tenant.id)).token.hint, 'ten…QRST');
  assert.deepEqual(await json('mcp-servers', 'token', 'remove', global.id, '--tenant', tenant.id), {
    deleted: true,
    server_id: global.id,
    tenant_id: tenant.id,
  });
  const wrong = await cli(['mcp-servers', 'add', '--namespace', 'Bad_NS', '--url', 'https://x.example/mcp']);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /\(400 /);
  assert.deepEqual(await json('mcp-servers', 'remove', global.id), { deleted: true, id: global.id });

  const key = await json('keys', 'create', tenant.id);
  const t1 = await json(
    'tenants',
    'update',
    tenant.id,
    '--mcp-tools',
    'github__*,search__query',
    '--mcp-calls-per-minute',
    '60',
  );
  assert.deepEqual(t1.mcp, {
    tools: ['github__*', 'search__query'],
    calls: { per_minute: 60 },
    end_user_calls: null,
  });
  const t2 = await json(
    'tenants',
    'update',
    tenant.id,
    '--mcp-end-user-calls-per-day',
    '100',
    '--mcp-calls-per-minute',
    'none',
  );
  assert.deepEqual(t2.mcp, {
    tools: ['github__*', 'search__query'],
    calls: null,
    end_user_calls: { per_day: 100 },
  });
  const k1 = await json('keys', 'update', key.id, '--mcp-tools', '', '--mcp-calls-per-day', '5');
  assert.deepEqual(k1.mcp, { tools: [], calls: { per_day: 5 } });
  const k2 = await json('keys', 'update', key.id, '--mcp-tools', 'all');
  assert.deepEqual(k2.mcp, { tools: null, calls: { per_day: 5 } });
  assert.equal((await json('keys', 'update', key.id, '--mcp-clear')).mcp, undefined);
  const bad = await cli(['keys', 'update', key.id, '--mcp-tools', 'github_x']);
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /\(400 /);
});
