// `me`, `admins …` and `audit`: who the CLI is signed in as, the named admins (owners only) and the audit
// log. An admin's token is printed once, by `admins create` and `admins rotate`; it works wherever the
// deployment's ADMIN_TOKEN does (the CLI's ADMIN_TOKEN variable included), with that admin's role.
import { describeChange } from './audit-format.mjs';
import { positional } from './util.mjs';

const ME_USAGE = 'me (or whoami)';
const CREATE_USAGE = 'admins create <name> --role owner|admin|viewer|tenant_admin [--tenant <tenant_id>]...';
const LIST_USAGE = 'admins list';
const GET_USAGE = 'admins get <admin_id>';
const UPDATE_USAGE =
  'admins update <admin_id> [--name <name>] [--role <role>] [--tenant <tenant_id>]... [--disable | --enable]';
const ROTATE_USAGE = 'admins rotate <admin_id>';
const DELETE_USAGE = 'admins delete <admin_id>';
const AUDIT_USAGE =
  'audit [--tenant <id>] [--actor <admin_id>] [--resource tenant|key|route|provider_key|price|admin|mcp_server|mcp_server_token]\n' +
  '      [--resource-id <id>] [--from <ISO date|ms>] [--to <ISO date|ms>] [--limit 1-200] [--cursor <c>] [--all]';

const ADMIN_COLUMNS = (time) => [
  ['ID', (a) => a.id],
  ['NAME', (a) => a.name],
  ['ROLE', (a) => a.role],
  ['TENANTS', (a) => (a.tenant_ids.length ? a.tenant_ids.join(',') : '-')],
  ['TOKEN', (a) => a.token_hint],
  ['STATUS', (a) => a.status],
  ['CREATED', (a) => time(a.created_at)],
];

/**
 * Every value of a repeatable string flag (`--tenant a --tenant b`, `--tenant=a`, commas allowed): the
 * shared parser keeps only the last occurrence of a flag the other commands take once.
 */
export function repeatedFlag(argv, flag) {
  const values = [];
  argv.forEach((arg, i) => {
    if (arg === `--${flag}` && argv[i + 1] !== undefined) values.push(argv[i + 1]);
    else if (arg.startsWith(`--${flag}=`)) values.push(arg.slice(flag.length + 3));
  });
  return values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
}

/** `--from`/`--to` as epoch ms: digits are taken as ms, anything else must parse as a date. */
export function instant(fail, flag, raw) {
  if (raw === undefined) return undefined;
  if (/^\d+$/.test(raw)) return Number(raw);
  const ms = Date.parse(raw);
  if (Number.isNaN(ms)) fail(`--${flag}: expected an ISO date or epoch ms, got '${raw}'`);
  return ms;
}

function printToken(issued, verb) {
  const scope = issued.tenant_ids.length ? ` of ${issued.tenant_ids.join(', ')}` : '';
  console.log(`${verb} admin ${issued.id} '${issued.name}' (${issued.role}${scope}).`);
  console.log(`\n  ${issued.token}\n\nThis token is shown once; store it now.`);
  console.log('It works wherever ADMIN_TOKEN does (the CLI, the API, the dashboard), with its role.');
}

async function allAdmins(ctx) {
  const items = [];
  let cursor = null;
  do {
    const page = await ctx.call(
      'GET',
      `/admins?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page.data);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

const adminPath = (ctx, usage) => `/admins/${encodeURIComponent(positional(ctx, 0, 'admin_id', usage))}`;

/** The query of `audit`, every value checked by the API but the times, which are read here. */
function auditQuery(ctx) {
  const { opts, fail } = ctx;
  const q = new URLSearchParams();
  const set = (param, value) => value !== undefined && q.set(param, String(value));
  set('tenant_id', opts.tenant);
  set('actor_id', opts.actor);
  set('resource', opts.resource);
  set('resource_id', opts['resource-id']);
  set('from', instant(fail, 'from', opts.from));
  set('to', instant(fail, 'to', opts.to));
  set('limit', opts.limit ?? (opts.all ? '200' : undefined));
  set('cursor', opts.cursor);
  return q;
}

function printAudit(entries, time) {
  if (!entries.length) return console.log('(none)');
  for (const e of entries) {
    const tenant = e.tenant_id && e.resource !== 'tenant' ? ` (tenant ${e.tenant_id})` : '';
    console.log(
      `${time(e.at)}  ${e.actor.name} [${e.actor.id}]  ${e.change} ${e.resource} ${e.resource_id}${tenant}` +
        (e.operation ? `  via ${e.operation}` : ''),
    );
    for (const line of describeChange(e)) console.log(`    ${line}`);
  }
}

export const adminCommands = [
  {
    name: 'me',
    aliases: ['whoami'],
    operations: ['GET /admin/me'],
    usage: ME_USAGE,
    help: 'the admin the token belongs to: name, role and tenants',
    async run(ctx) {
      const me = await ctx.call('GET', '/me');
      ctx.show(me, () =>
        console.log(
          `${me.name} [${me.id}], ${me.role}${me.tenant_ids.length ? ` of ${me.tenant_ids.join(', ')}` : ''}`,
        ),
      );
    },
  },
  {
    name: 'admins create',
    operations: ['POST /admin/admins'],
    usage: CREATE_USAGE,
    help: 'a named admin with its own token, printed once (owners only)',
    async run(ctx) {
      const name = positional(ctx, 0, 'name', CREATE_USAGE);
      if (!ctx.opts.role) ctx.fail(`give --role\n\n${CREATE_USAGE}`);
      const body = { name, role: ctx.opts.role };
      const tenants = repeatedFlag(process.argv, 'tenant');
      if (tenants.length) body.tenant_ids = tenants;
      ctx.show(await ctx.call('POST', '/admins', body), (a) => printToken(a, 'Created'));
    },
  },
  {
    name: 'admins list',
    operations: ['GET /admin/admins'],
    usage: LIST_USAGE,
    help: 'every named admin, newest first (never tokens; a hint only)',
    async run(ctx) {
      ctx.show(await allAdmins(ctx), (rows) => ctx.table(rows, ADMIN_COLUMNS(ctx.time)));
    },
  },
  {
    name: 'admins get',
    operations: ['GET /admin/admins/{id}'],
    usage: GET_USAGE,
    help: 'one admin',
    async run(ctx) {
      const admin = await ctx.call('GET', adminPath(ctx, GET_USAGE));
      ctx.show(admin, () => console.log(JSON.stringify(admin, null, 2)));
    },
  },
  {
    name: 'admins update',
    operations: ['PATCH /admin/admins/{id}'],
    usage: UPDATE_USAGE,
    help: 'rename, change role or tenants (--tenant replaces them all), disable or enable',
    async run(ctx) {
      const { opts, fail } = ctx;
      const path = adminPath(ctx, UPDATE_USAGE);
      if (opts.disable && opts.enable) fail('--disable and --enable exclude each other');
      const body = {};
      if (opts.name !== undefined) body.name = opts.name;
      if (opts.role !== undefined) body.role = opts.role;
      const tenants = repeatedFlag(process.argv, 'tenant');
      if (tenants.length) body.tenant_ids = tenants;
      if (opts.disable) body.status = 'disabled';
      if (opts.enable) body.status = 'active';
      if (Object.keys(body).length === 0)
        fail(`nothing to change: give --name, --role, --tenant, --disable or --enable\n\n${UPDATE_USAGE}`);
      ctx.show(await ctx.call('PATCH', path, body), (a) =>
        console.log(
          `Admin ${a.id} '${a.name}': ${a.role}${a.tenant_ids.length ? ` of ${a.tenant_ids.join(', ')}` : ''}, ${a.status}.`,
        ),
      );
    },
  },
  {
    name: 'admins rotate',
    operations: ['POST /admin/admins/{id}/rotate'],
    usage: ROTATE_USAGE,
    help: 'a new token for the admin, printed once; the old one stops working at once',
    async run(ctx) {
      ctx.show(await ctx.call('POST', `${adminPath(ctx, ROTATE_USAGE)}/rotate`), (a) =>
        printToken(a, 'Rotated the token of'),
      );
    },
  },
  {
    name: 'admins delete',
    operations: ['DELETE /admin/admins/{id}'],
    usage: DELETE_USAGE,
    help: 'delete an admin: its token stops working; its audit rows stay',
    async run(ctx) {
      ctx.show(await ctx.call('DELETE', adminPath(ctx, DELETE_USAGE)), (a) =>
        console.log(`Deleted admin ${a.id} '${a.name}'.`),
      );
    },
  },
  {
    name: 'audit',
    operations: ['GET /admin/audit'],
    usage: AUDIT_USAGE,
    help: 'who changed what and when, newest first, with the changed fields (one page; --all follows them)',
    async run(ctx) {
      const q = auditQuery(ctx);
      let page = await ctx.call('GET', `/audit?${q}`);
      if (ctx.opts.all) {
        const data = [...page.data];
        while (page.next_cursor) {
          q.set('cursor', page.next_cursor);
          page = await ctx.call('GET', `/audit?${q}`);
          data.push(...page.data);
        }
        page = { object: 'list', data, has_more: false, next_cursor: null };
      }
      ctx.show(page, () => {
        printAudit(page.data, ctx.time);
        if (page.next_cursor) console.log(`more: --cursor ${page.next_cursor} (or --all)`);
      });
    },
  },
];

export const adminOptions = {
  role: { type: 'string' },
  actor: { type: 'string' },
  resource: { type: 'string' },
  'resource-id': { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  all: { type: 'boolean' },
  disable: { type: 'boolean' },
  enable: { type: 'boolean' },
};
