#!/usr/bin/env node
// Edgeway admin CLI: a thin client of the admin API (/admin), plain Node ≥ 20, no dependencies.
// Reads EDGEWAY_URL (default http://127.0.0.1:8787) and ADMIN_TOKEN (env, else .dev.vars): the deployment's
// break-glass token or a named admin's own (ewadm_…), whose role then decides what the commands may do.
// Secrets are printed once, by `keys create` and `keys rotate`, exactly as the API returns them.
// A tenant's own provider key is read from stdin (or a hidden prompt), never from the command line,
// so it stays out of shell history and process lists; it is never printed back, only its hint.
// A route's spec is JSON on stdin (`routes create smart < smart.json`), checked by the API.
// `guardrails set` reads the stored policy, merges the command line into it and saves it whole;
// the API checks it (actions per guardrail, deny-list patterns) and its refusal is printed as is.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CLI_OPTIONS, findCommand, GROUPS, tableUsage } from './cli/commands.mjs';

const USAGE = `Usage: npm run admin -- <command>   (or: node scripts/admin.mjs <command>)

  tenants create <name>
  tenants list [--status active|disabled]
  tenants get <tenant_id>
  tenants disable <tenant_id>
  tenants enable <tenant_id>
  keys create <tenant_id> [--name <name>] [--models a,b] [--expires <ISO date>] [--origins a,b]
      [--on-unsupported drop|refuse]
                          refuse: a request whose translation to another wire format would drop
                          fields (named in x-edgeway-dropped otherwise) is a 400 instead
  keys list <tenant_id> [--status active|revoked]
  keys get <key_id>
  keys rotate <key_id> [--grace <seconds>]
  keys revoke <key_id>
  keys origins <key_id> [<origin,origin…> | --clear]
                          the browser origins that may call /v1 with the key (CORS): shows them,
                          or replaces them whole, like https://app.example.com,http://localhost:5173
  provider-keys set <tenant_id> <provider>      the key is read from stdin, or a hidden prompt
  provider-keys list <tenant_id>
  provider-keys delete <tenant_id> <provider>
  providers list          which providers are configured, and which take tenants' own keys
  routes create <name> [--tenant <tenant_id>]   the spec JSON is read from stdin; global without --tenant
  routes list [--tenant <tenant_id> | --global]
  routes get <route_id>
  routes update <route_id> [--name <new name>]  a new spec JSON from stdin, unless only --name is given
  routes delete <route_id>
  logs reconcile          requests answered vs log events stored (exit 2 if not balanced)
  guardrails get --tenant <tenant_id> | --key <key_id>
  guardrails set --tenant <tenant_id> | --key <key_id> [--request pii=redact,injection=block]
      [--response pii=redact] [--threshold 0.8] [--tool-results quarantine] [--tool-threshold 0.8]
      [--restore | --no-restore] [--deny-term <term>]... [--deny-pattern <regex>]... [--file policy.json]
      [--clear]
                          merges into the stored policy (--clear starts from none) and saves it;
                          a key's policy narrows its tenant's, never loosens it. --tool-results: what
                          injection does to a tool result it fires on (off, log, flag, quarantine,
                          block; inherit: as --request injection=…); --tool-threshold: its threshold
${tableUsage()}
  help                    this list

Command groups: ${GROUPS.join(', ')}.
Options: --json prints the raw API response (a deletion that answers nothing prints {"deleted": true, …}).
Environment: EDGEWAY_URL (default http://127.0.0.1:8787), ADMIN_TOKEN (default: from .dev.vars): the
  deployment's ADMIN_TOKEN or a named admin's token (ewadm_…, from admins create), acting with its role.`;

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

function adminToken() {
  if (process.env.ADMIN_TOKEN) return process.env.ADMIN_TOKEN;
  const file = join(ROOT, '.dev.vars');
  const match = existsSync(file)
    ? /^ADMIN_TOKEN\s*=\s*"?([^"\n]+)"?\s*$/m.exec(readFileSync(file, 'utf8'))
    : null;
  if (match) return match[1];
  fail('ADMIN_TOKEN is not set and .dev.vars has none (run `npm run dev` once, or export ADMIN_TOKEN).');
}

function fail(message) {
  console.error(`error: ${message}`);
  process.exit(1);
}

/** The admin API's raw answer, whatever its status (for commands that stream it or read a refusal). */
async function send(method, path, body) {
  const base = (process.env.EDGEWAY_URL ?? 'http://127.0.0.1:8787').replace(/\/+$/, '');
  try {
    return await fetch(`${base}/admin${path}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken()}`,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (err) {
    fail(`cannot reach ${base}: ${err.cause?.message ?? err.message}`);
  }
}

/** The API's refusal in one line, as every command prints it. */
const refusal = (method, path, res, json) => {
  const e = json?.error;
  return e ? `${e.message} (${res.status} ${e.code ?? e.type})` : `${method} ${path} → HTTP ${res.status}`;
};

async function call(method, path, body) {
  const res = await send(method, path, body);
  const json = await res.json().catch(() => null);
  if (!res.ok) fail(refusal(method, path, res, json));
  return json;
}

/** Follows next_cursor until the last page. */
async function listAll(path) {
  const items = [];
  let cursor = null;
  do {
    const sep = path.includes('?') ? '&' : '?';
    const page = await call(
      'GET',
      `${path}${sep}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const time = (ms) => (ms == null ? '-' : new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z'));

function table(rows, columns) {
  if (!rows.length) return console.log('(none)');
  const cells = rows.map((r) => columns.map(([, get]) => String(get(r))));
  const widths = columns.map(([head], i) => Math.max(head.length, ...cells.map((c) => c[i].length)));
  const line = (values) =>
    values
      .map((v, i) => v.padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  console.log(line(columns.map(([head]) => head)));
  for (const c of cells) console.log(line(c));
}

const TENANT_COLUMNS = [
  ['ID', (t) => t.id],
  ['NAME', (t) => t.name],
  ['STATUS', (t) => t.status],
  ['CREATED', (t) => time(t.created_at)],
];
const KEY_COLUMNS = [
  ['ID', (k) => k.id],
  ['NAME', (k) => k.name || '-'],
  ['HINT', (k) => k.hint],
  ['STATUS', (k) => k.status],
  ['MODELS', (k) => (k.models ? k.models.join(',') : 'all')],
  ['EXPIRES', (k) => time(k.expires_at)],
  ['LAST USED', (k) => time(k.last_used_at)],
];

const PROVIDER_KEY_COLUMNS = [
  ['PROVIDER', (k) => k.provider],
  ['HINT', (k) => k.hint],
  ['CREATED', (k) => time(k.created_at)],
  ['UPDATED', (k) => time(k.updated_at)],
];

/** A route's targets in one line: fallback steps joined by →, a weighted group as a|b with weights. */
function describeSteps(group) {
  const steps = group.targets.map((t) =>
    'strategy' in t
      ? `(${describeSteps(t)})`
      : group.strategy === 'loadbalance'
        ? `${t.model}×${t.weight}`
        : t.model,
  );
  return steps.join(group.strategy === 'loadbalance' ? ' | ' : ' → ');
}

const ROUTE_COLUMNS = [
  ['ID', (r) => r.id],
  ['NAME', (r) => r.name],
  ['SCOPE', (r) => r.tenant_id ?? 'global'],
  ['STRATEGY', (r) => r.spec.strategy],
  ['TARGETS', (r) => describeSteps(r.spec)],
  ['UPDATED', (r) => time(r.updated_at)],
];

const PROVIDER_COLUMNS = [
  ['PROVIDER', (p) => p.id],
  ['CONFIGURED', (p) => (p.configured ? (p.keyless ? 'yes (no key needed)' : 'yes') : 'no')],
  ['TENANT KEYS', (p) => (p.accepts_tenant_keys ? String(p.tenants_with_own_key) : '-')],
];

/** Piped stdin is read whole; a terminal gets a prompt with echo off (Ctrl-C aborts). */
async function readSecret(prompt) {
  const input = process.stdin;
  if (!input.isTTY) {
    let text = '';
    for await (const chunk of input) text += chunk;
    return text.trim();
  }
  process.stderr.write(prompt);
  input.setRawMode(true);
  input.setEncoding('utf8');
  return new Promise((resolve) => {
    let text = '';
    const onData = (chunk) => {
      for (const ch of chunk) {
        if (ch === '\u0003') {
          process.stderr.write('\n');
          process.exit(130);
        }
        if (ch === '\r' || ch === '\n' || ch === '\u0004') {
          input.setRawMode(false);
          input.off('data', onData);
          input.pause();
          process.stderr.write('\n');
          return resolve(text.trim());
        }
        text = ch === '\u007f' || ch === '\b' ? text.slice(0, -1) : text + ch;
      }
    };
    input.on('data', onData);
  });
}

/** Piped stdin read whole as JSON (a route's spec); a terminal is refused rather than waited on. */
async function readJsonStdin(what, optional = false) {
  if (process.stdin.isTTY) {
    if (optional) return undefined;
    fail(`pipe the ${what} JSON on stdin, e.g. < spec.json`);
  }
  let text = '';
  for await (const chunk of process.stdin) text += chunk;
  if (optional && text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch (err) {
    fail(`stdin is not JSON (${err.message})`);
  }
}

function printSecret(key, verb) {
  console.log(`${verb} key ${key.id} for tenant ${key.tenant_id}.`);
  if (key.grace_expires_at)
    console.log(`The previous secret keeps working until ${time(key.grace_expires_at)}.`);
  console.log(`\n  ${key.key}\n\nThis secret is shown once; store it now.`);
}

/** The admin path of the one tenant or key a guardrails command is about. */
/** `a, b,c` → ['a', 'b', 'c']; the API checks each value. */
function commaList(text) {
  return text
    .split(',')
    .map((item) => item.trim())
    .filter(Boolean);
}

function guardrailOwner() {
  if (Boolean(opts.tenant) === Boolean(opts.key)) fail(`give one of --tenant <id> or --key <id>\n\n${USAGE}`);
  return opts.tenant
    ? { path: `/tenants/${encodeURIComponent(opts.tenant)}`, what: `tenant ${opts.tenant}` }
    : { path: `/keys/${encodeURIComponent(opts.key)}`, what: `key ${opts.key}` };
}

/** `pii=redact,secrets=block` (the option may repeat) as [guardrail, action] pairs. */
function actionPairs(flag, values = []) {
  return values
    .flatMap((v) => v.split(','))
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => {
      const m = /^([a-z_]+)=([a-z]+)$/.exec(item);
      if (!m) fail(`--${flag}: expected guardrail=action (e.g. pii=redact), got '${item}'`);
      if (m[2] === 'quarantine')
        fail(`--${flag}: quarantine applies to tool results only: use --tool-results quarantine`);
      return [m[1], m[2]];
    });
}

function readPolicyFile(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    fail(`--file ${file}: ${err.message}`);
  }
}

const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A number option, or undefined when it is not given; not a number is refused here. */
function numberOption(flag) {
  const raw = opts[flag];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (raw.trim() === '' || Number.isNaN(n)) fail(`--${flag}: not a number: ${raw}`);
  return n;
}

/** What `guardrails set` was asked to change, read and checked before anything is sent. */
function policyEdits() {
  const file = opts.file === undefined ? {} : readPolicyFile(opts.file);
  if (!isObject(file)) fail(`--file ${opts.file}: expected a JSON object (a guardrail policy)`);
  const threshold = numberOption('threshold');
  const toolThreshold = numberOption('tool-threshold');
  const toolResults = opts['tool-results']?.trim();
  if (toolResults === '')
    fail('--tool-results: give an action (off, log, flag, quarantine, block) or inherit');
  if (opts.restore && opts['no-restore']) fail('--restore and --no-restore exclude each other');
  const edits = {
    file,
    request: actionPairs('request', opts.request),
    response: actionPairs('response', opts.response),
    threshold,
    toolResults,
    toolThreshold,
    restore: opts.restore ? true : opts['no-restore'] ? false : undefined,
    terms: opts['deny-term'] ?? [],
    patterns: opts['deny-pattern'] ?? [],
  };
  const lists = [edits.request, edits.response, edits.terms, edits.patterns];
  edits.any =
    opts.file !== undefined ||
    threshold !== undefined ||
    toolResults !== undefined ||
    toolThreshold !== undefined ||
    edits.restore !== undefined ||
    lists.some((l) => l.length > 0);
  return edits;
}

/**
 * The stored policy with the edits: a file's fields replace the stored ones (a guardrail's rule is
 * merged per direction), then the flags; deny terms and patterns are added to the stored ones.
 */
function mergedPolicy(stored, edits) {
  const policy = structuredClone(stored);
  for (const [field, value] of Object.entries(edits.file))
    policy[field] =
      isObject(value) && field !== 'deny' && isObject(policy[field]) ? { ...policy[field], ...value } : value;
  for (const direction of ['request', 'response'])
    for (const [guardrail, action] of edits[direction])
      policy[guardrail] = { ...(isObject(policy[guardrail]) ? policy[guardrail] : {}), [direction]: action };
  if (edits.threshold !== undefined) policy.injection_threshold = edits.threshold;
  if (edits.toolResults !== undefined) {
    // `inherit` removes the setting: tool results then follow the injection action on requests.
    const { tool_results: _, ...rule } = isObject(policy.injection) ? policy.injection : {};
    policy.injection = edits.toolResults === 'inherit' ? rule : { ...rule, tool_results: edits.toolResults };
    if (Object.keys(policy.injection).length === 0) delete policy.injection;
  }
  if (edits.toolThreshold !== undefined) policy.injection_tool_threshold = edits.toolThreshold;
  if (edits.restore !== undefined) policy.restore = edits.restore;
  if (edits.terms.length || edits.patterns.length) {
    const deny = { terms: [], patterns: [], ...policy.deny };
    policy.deny = {
      terms: [...new Set([...deny.terms, ...edits.terms])],
      patterns: [...new Set([...deny.patterns, ...edits.patterns])],
    };
  }
  return policy;
}

const GUARDRAIL_NAMES = ['injection', 'pii', 'secrets', 'denylist', 'llama_guard'];
/** Guardrails that judge requests only: no action on answers. */
const REQUEST_ONLY = ['injection', 'llama_guard'];

function printPolicy(policy, owner) {
  const names = [
    ...new Set([
      ...GUARDRAIL_NAMES,
      ...Object.keys(policy).filter((k) => isObject(policy[k]) && k !== 'deny'),
    ]),
  ];
  table(
    names.map((name) => ({ name, rule: policy[name] ?? {} })),
    [
      ['GUARDRAIL', (r) => r.name],
      ['REQUEST', (r) => r.rule.request ?? 'off'],
      ['RESPONSE', (r) => r.rule.response ?? (REQUEST_ONLY.includes(r.name) ? '-' : 'off')],
    ],
  );
  const restore =
    { true: 'yes', false: 'never' }[String(policy.restore)] ??
    (owner.startsWith('key') ? 'as the tenant' : 'no');
  const injection = isObject(policy.injection) ? policy.injection : {};
  console.log(
    `tool results         ${injection.tool_results ?? `${injection.request ?? 'off'} (as injection on requests)`}`,
  );
  console.log(`injection threshold  ${policy.injection_threshold ?? 'default'}`);
  console.log(`tool threshold       ${policy.injection_tool_threshold ?? 'default'}`);
  console.log(`restore              ${restore}`);
  console.log(
    `deny terms           ${policy.deny?.terms?.length ? policy.deny.terms.join(' | ') : '(none)'}`,
  );
  console.log(
    `deny patterns        ${policy.deny?.patterns?.length ? policy.deny.patterns.join(' | ') : '(none)'}`,
  );
  if (owner.startsWith('key'))
    console.log("A key's policy narrows its tenant's: the stricter action of the two applies.");
}

function parseCommandLine() {
  try {
    return parseArgs({
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        models: { type: 'string' },
        origins: { type: 'string' },
        expires: { type: 'string' },
        grace: { type: 'string' },
        status: { type: 'string' },
        tenant: { type: 'string' },
        key: { type: 'string' },
        global: { type: 'boolean' },
        request: { type: 'string', multiple: true },
        response: { type: 'string', multiple: true },
        threshold: { type: 'string' },
        'tool-results': { type: 'string' },
        'tool-threshold': { type: 'string' },
        restore: { type: 'boolean' },
        'no-restore': { type: 'boolean' },
        'deny-term': { type: 'string', multiple: true },
        'deny-pattern': { type: 'string', multiple: true },
        file: { type: 'string' },
        clear: { type: 'boolean' },
        from: { type: 'string' },
        to: { type: 'string' },
        json: { type: 'boolean' },
        ...CLI_OPTIONS,
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    fail(`${err.message}\n\n${USAGE}`);
  }
}

const { values: opts, positionals } = parseCommandLine();
const [resource, action, arg, arg2] = positionals;
const need = (what) => arg ?? fail(`missing <${what}>\n\n${USAGE}`);
const need2 = (what) => arg2 ?? fail(`missing <${what}>\n\n${USAGE}`);
const show = (value, print) => (opts.json ? console.log(JSON.stringify(value, null, 2)) : print(value));
const statusQuery = opts.status ? `status=${encodeURIComponent(opts.status)}` : '';

if (opts.help || !resource || resource === 'help') {
  console.log(USAGE);
  process.exit(opts.help || resource ? 0 : 1);
}

switch (action === undefined ? resource : `${resource} ${action}`) {
  case 'tenants create':
    show(await call('POST', '/tenants', { name: need('name') }), (t) => {
      console.log(`Created tenant ${t.id} (${t.name}).`);
      for (const w of t.warnings ?? []) console.error(`Warning: ${w.message}`);
    });
    break;
  case 'tenants list':
    show(await listAll(`/tenants${statusQuery ? `?${statusQuery}` : ''}`), (rows) =>
      table(rows, TENANT_COLUMNS),
    );
    break;
  case 'tenants get':
    show(await call('GET', `/tenants/${encodeURIComponent(need('tenant_id'))}`), (t) =>
      console.log(JSON.stringify(t, null, 2)),
    );
    break;
  case 'tenants disable':
  case 'tenants enable':
    show(await call('POST', `/tenants/${encodeURIComponent(need('tenant_id'))}/${action}`), (t) =>
      console.log(`Tenant ${t.id} is now ${t.status}.`),
    );
    break;
  case 'keys create': {
    const body = { tenant_id: need('tenant_id') };
    if (opts.name !== undefined) body.name = opts.name;
    if (opts.models !== undefined)
      body.models = opts.models
        .split(',')
        .map((m) => m.trim())
        .filter(Boolean);
    if (opts.origins !== undefined) body.origins = commaList(opts.origins);
    if (opts['on-unsupported'] !== undefined) body.on_unsupported = opts['on-unsupported'];
    if (opts.expires !== undefined) {
      body.expires_at = Date.parse(opts.expires);
      if (Number.isNaN(body.expires_at)) fail(`--expires: not a date: ${opts.expires}`);
    }
    show(await call('POST', '/keys', body), (k) => printSecret(k, 'Created'));
    break;
  }
  case 'keys list':
    show(
      await listAll(
        `/keys?tenant_id=${encodeURIComponent(need('tenant_id'))}${statusQuery ? `&${statusQuery}` : ''}`,
      ),
      (rows) => table(rows, KEY_COLUMNS),
    );
    break;
  case 'keys get':
    show(await call('GET', `/keys/${encodeURIComponent(need('key_id'))}`), (k) =>
      console.log(JSON.stringify(k, null, 2)),
    );
    break;
  case 'keys rotate': {
    const grace = opts.grace === undefined ? undefined : Number(opts.grace);
    if (grace !== undefined && !Number.isInteger(grace))
      fail(`--grace: expected whole seconds, got ${opts.grace}`);
    show(
      await call(
        'POST',
        `/keys/${encodeURIComponent(need('key_id'))}/rotate`,
        grace === undefined ? {} : { grace_seconds: grace },
      ),
      (k) => printSecret(k, 'Rotated'),
    );
    break;
  }
  case 'keys origins': {
    const path = `/keys/${encodeURIComponent(need('key_id'))}`;
    if (arg2 !== undefined && opts.clear) fail(`give either origins or --clear, not both\n\n${USAGE}`);
    const key =
      arg2 === undefined && !opts.clear
        ? await call('GET', path)
        : await call('PATCH', path, { origins: opts.clear ? [] : commaList(arg2) });
    show(key.origins, (origins) =>
      console.log(origins.length === 0 ? `Key ${key.id}: no browser origin may use it.` : origins.join('\n')),
    );
    break;
  }
  case 'keys revoke':
    show(await call('DELETE', `/keys/${encodeURIComponent(need('key_id'))}`), (k) =>
      console.log(`Revoked key ${k.id} (${k.hint}).`),
    );
    break;
  case 'provider-keys set': {
    const tenant = need('tenant_id');
    const provider = need2('provider');
    const key = await readSecret(`${provider} key for tenant ${tenant} (input hidden): `);
    if (!key) fail('no key given (pipe it on stdin, or type it at the prompt)');
    const path = `/tenants/${encodeURIComponent(tenant)}/provider-keys/${encodeURIComponent(provider)}`;
    show(await call('PUT', path, { key }), (k) =>
      console.log(
        `Saved tenant ${tenant}'s own ${k.provider} key (${k.hint}); its ${k.provider} requests now use it.`,
      ),
    );
    break;
  }
  case 'providers list':
    show((await call('GET', '/providers')).data, (rows) => table(rows, PROVIDER_COLUMNS));
    break;
  case 'routes create': {
    const body = { name: need('name'), tenant_id: opts.tenant ?? null, spec: await readJsonStdin('spec') };
    show(await call('POST', '/routes', body), (r) =>
      console.log(`Created route ${r.id} '${r.name}' (${r.tenant_id ?? 'global'}): ${describeSteps(r.spec)}`),
    );
    break;
  }
  case 'routes list': {
    if (opts.tenant && opts.global) fail('--tenant and --global exclude each other');
    const scope = opts.global ? 'global' : opts.tenant;
    show(await listAll(`/routes${scope ? `?tenant_id=${encodeURIComponent(scope)}` : ''}`), (rows) =>
      table(rows, ROUTE_COLUMNS),
    );
    break;
  }
  case 'routes get':
    show(await call('GET', `/routes/${encodeURIComponent(need('route_id'))}`), (r) =>
      console.log(JSON.stringify(r, null, 2)),
    );
    break;
  case 'routes update': {
    const id = need('route_id');
    const body = opts.name === undefined ? {} : { name: opts.name };
    const spec = await readJsonStdin('spec', opts.name !== undefined);
    if (spec !== undefined) body.spec = spec;
    show(await call('PATCH', `/routes/${encodeURIComponent(id)}`, body), (r) =>
      console.log(`Updated route ${r.id} '${r.name}': ${describeSteps(r.spec)}`),
    );
    break;
  }
  case 'routes delete':
    await call('DELETE', `/routes/${encodeURIComponent(need('route_id'))}`);
    show({ id: arg, deleted: true }, () => console.log(`Deleted route ${arg}.`));
    break;
  case 'provider-keys list':
    show(
      (await call('GET', `/tenants/${encodeURIComponent(need('tenant_id'))}/provider-keys`)).data,
      (rows) => table(rows, PROVIDER_KEY_COLUMNS),
    );
    break;
  case 'provider-keys delete': {
    const tenant = need('tenant_id');
    const provider = need2('provider');
    await call(
      'DELETE',
      `/tenants/${encodeURIComponent(tenant)}/provider-keys/${encodeURIComponent(provider)}`,
    );
    show({ tenant_id: tenant, provider, deleted: true }, () =>
      console.log(
        `Deleted tenant ${tenant}'s own ${provider} key; its ${provider} requests use the deployment's key again.`,
      ),
    );
    break;
  }
  case 'logs reconcile': {
    const r = await call('GET', '/logs/reconcile');
    show(r, () => {
      const rows = [
        ['requests answered (producers)', r.sent],
        ['events received', r.received],
        ['  stored', r.stored],
        ['  dead-lettered', r.dead_lettered],
        ['  of them via fallback (D1 direct)', r.fallback],
        ['missing events', r.missing],
        ['missing batches', r.missing_batches],
      ];
      for (const [label, n] of rows) console.log(`${label.padEnd(36)}${n}`);
      for (const g of r.gaps) console.log(`  gap: isolate ${g.isolate} batches ${g.first_seq}–${g.last_seq}`);
      console.log(
        r.balanced
          ? 'balanced'
          : 'NOT balanced (batches still in the queue count as missing for a few seconds)',
      );
    });
    if (!r.balanced) process.exitCode = 2;
    break;
  }
  case 'guardrails get': {
    const owner = guardrailOwner();
    show((await call('GET', owner.path)).guardrails, (p) => printPolicy(p, owner.what));
    break;
  }
  case 'guardrails set': {
    const owner = guardrailOwner();
    const edits = policyEdits();
    if (!opts.clear && !edits.any)
      fail(
        `nothing to change: give --request, --response, --threshold, --tool-results, --restore, --deny-term … or --clear\n\n${USAGE}`,
      );
    const stored = opts.clear ? {} : (await call('GET', owner.path)).guardrails;
    const saved = await call('PATCH', owner.path, { guardrails: mergedPolicy(stored, edits) });
    show(saved.guardrails, (p) => {
      console.log(`Saved the guardrails of ${owner.what}; they apply from the next request.`);
      printPolicy(p, owner.what);
    });
    break;
  }
  default: {
    const command = findCommand(positionals);
    if (!command?.run) fail(`unknown command: ${positionals.join(' ')}\n\n${USAGE}`);
    const args = positionals.slice(command.name.split(' ').length);
    await command.run({ args, opts, call, send, refusal, fail, show, table, time });
  }
}
