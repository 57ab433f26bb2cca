// `mcp-servers list|get|add|update|remove|token`: the upstream MCP servers behind /mcp (docs/mcp.md), global
// ones, or a tenant's own with --tenant (whose listing also shows the global ones it is offered), and a
// tenant's token for a global tenant_token server. A secret comes from --secret, or better --secret-env /
// --token-env (the name of an environment variable holding it, so it stays out of shell history and process
// lists); it is never printed back, only its hint. `update` sends only what is given: an auth flag alone
// reads the stored auth first and keeps the rest of it (the stored secret too, unless a new one is given).
import { positional } from './util.mjs';

const TENANT_FLAG = '[--tenant <tenant_id>]';
const LIST_USAGE = `mcp-servers list ${TENANT_FLAG}`;
const GET_USAGE = `mcp-servers get <server_id> ${TENANT_FLAG}`;
const AUTH_FLAGS =
  '[--auth none|bearer|header|tenant_token] [--header <name>] [--secret <s> | --secret-env <VAR>]';
const ADD_USAGE =
  `mcp-servers add --namespace <ns> --url <url> ${TENANT_FLAG} [--transport streamable-http|sse]\n` +
  `      ${AUTH_FLAGS}\n      [--timeout-ms N] [--description <text>] [--disable]`;
const UPDATE_USAGE =
  `mcp-servers update <server_id> ${TENANT_FLAG} [--namespace <ns>] [--url <url>] [--transport …]\n` +
  `      ${AUTH_FLAGS}\n      [--timeout-ms N] [--description <text>] [--disable | --enable]`;
const REMOVE_USAGE = `mcp-servers remove <server_id> ${TENANT_FLAG}`;
const TOKEN_USAGE =
  'mcp-servers token set <server_id> --tenant <tenant_id> (--token <t> | --token-env <VAR>)\n' +
  '  mcp-servers token remove <server_id> --tenant <tenant_id>';

/** The collection path: the global servers, or the tenant's. */
const base = ({ opts }) =>
  opts.tenant ? `/tenants/${encodeURIComponent(opts.tenant)}/mcp-servers` : '/mcp-servers';

const serverPath = (ctx, usage) =>
  `${base(ctx)}/${encodeURIComponent(positional(ctx, 0, 'server_id', usage))}`;

/** The value of --<flag> or of the environment variable --<flag>-env names; undefined when neither. */
function secretFrom({ opts, fail }, flag) {
  const direct = opts[flag];
  const variable = opts[`${flag}-env`];
  if (direct !== undefined && variable !== undefined) fail(`give --${flag} or --${flag}-env, not both`);
  if (variable === undefined) return direct;
  const value = process.env[variable];
  if (!value) fail(`--${flag}-env: the environment variable ${variable} is not set`);
  return value;
}

function timeoutFlag({ opts, fail }) {
  const raw = opts['timeout-ms'];
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw)) fail(`--timeout-ms: expected milliseconds, got '${raw}'`);
  return Number(raw);
}

/**
 * The `auth` to send, or undefined when no auth flag is given. Without --auth the type is the stored one
 * (update), else `header` with --header and a secret, `bearer` with a secret alone. A header is sent only
 * where the type takes one.
 */
function authBody(ctx, stored) {
  const { opts } = ctx;
  const secret = secretFrom(ctx, 'secret');
  if (opts.auth === undefined && opts.header === undefined && secret === undefined) return undefined;
  const inferred = secret === undefined ? 'none' : opts.header !== undefined ? 'header' : 'bearer';
  // --header alone turns a stored bearer into a named header.
  const storedType = opts.header !== undefined && stored?.type === 'bearer' ? 'header' : stored?.type;
  const type = opts.auth ?? storedType ?? inferred;
  const keepsHeader = type === 'header' || type === 'tenant_token';
  const header = keepsHeader ? (opts.header ?? stored?.header ?? null) : null;
  return {
    type,
    ...(header ? { header } : {}),
    ...(secret === undefined ? {} : { secret }),
  };
}

function enabledFlag({ opts, fail }) {
  if (opts.disable && opts.enable) fail('--disable and --enable exclude each other');
  if (opts.disable) return false;
  if (opts.enable) return true;
  return undefined;
}

/** The fields the flags give; undefined ones left out. */
function fieldsOf(ctx, stored) {
  const { opts } = ctx;
  const body = {
    namespace: opts.namespace,
    url: opts.url,
    transport: opts.transport,
    description: opts.description,
    timeout_ms: timeoutFlag(ctx),
    enabled: enabledFlag(ctx),
    auth: authBody(ctx, stored),
  };
  for (const [field, value] of Object.entries(body)) if (value === undefined) delete body[field];
  return body;
}

const authText = (a) => `${a.type}${a.header ? ` (${a.header})` : ''}${a.hint ? ` ${a.hint}` : ''}`;

export const MCP_SERVER_COLUMNS = [
  ['ID', (s) => s.id],
  ['NAMESPACE', (s) => s.namespace],
  ['SCOPE', (s) => (s.scope === 'global' ? 'global' : s.tenant_id)],
  ['URL', (s) => s.url],
  ['AUTH', (s) => authText(s.auth) + (s.token ? `, token ${s.token.hint}` : '')],
  ['ENABLED', (s) => (s.enabled ? 'yes' : 'no')],
];

const printServer = (s) =>
  console.log(
    `${s.id}  ${s.namespace}  (${s.scope === 'global' ? 'global' : `tenant ${s.tenant_id}`})\n` +
      `  url          ${s.url} [${s.transport}]\n` +
      `  auth         ${authText(s.auth)}\n` +
      (s.token !== undefined ? `  token        ${s.token ? s.token.hint : '(none)'}\n` : '') +
      `  timeout      ${s.timeout_ms} ms\n` +
      `  enabled      ${s.enabled ? 'yes' : 'no'}\n` +
      (s.description ? `  description  ${s.description}\n` : ''),
  );

const BOTH = (method, rest = '') => [
  `${method} /admin/mcp-servers${rest}`,
  `${method} /admin/tenants/{id}/mcp-servers${rest}`,
];

export const mcpServerCommands = [
  {
    name: 'mcp-servers list',
    operations: BOTH('GET'),
    usage: LIST_USAGE,
    help: 'the global MCP servers; with --tenant, the ones the tenant is offered (global, then its own)',
    async run(ctx) {
      const list = await ctx.call('GET', base(ctx));
      ctx.show(list.data, (rows) => ctx.table(rows, MCP_SERVER_COLUMNS));
    },
  },
  {
    name: 'mcp-servers get',
    operations: BOTH('GET', '/{server}'),
    usage: GET_USAGE,
    help: "one server (with --tenant: as the tenant sees it, with its token's hint)",
    async run(ctx) {
      const s = await ctx.call('GET', serverPath(ctx, GET_USAGE));
      ctx.show(s, printServer);
    },
  },
  {
    name: 'mcp-servers add',
    operations: BOTH('POST'),
    usage: ADD_USAGE,
    help: "registers a server, global or (--tenant) the tenant's own; --secret-env names a variable holding the secret",
    async run(ctx) {
      const { opts, fail } = ctx;
      if (!opts.namespace || !opts.url) fail(`give --namespace and --url\n\n${ADD_USAGE}`);
      const s = await ctx.call('POST', base(ctx), fieldsOf(ctx, null));
      ctx.show(s, () => {
        console.log('Registered MCP server:');
        printServer(s);
      });
    },
  },
  {
    name: 'mcp-servers update',
    operations: [...BOTH('GET', '/{server}'), ...BOTH('PATCH', '/{server}')],
    usage: UPDATE_USAGE,
    help: 'changes the fields given; an auth flag alone keeps the rest of the stored auth, the secret included',
    async run(ctx) {
      const path = serverPath(ctx, UPDATE_USAGE);
      const { opts } = ctx;
      const authGiven = [opts.auth, opts.header, opts.secret, opts['secret-env']].some(
        (v) => v !== undefined,
      );
      const stored = authGiven ? (await ctx.call('GET', path)).auth : null;
      const body = fieldsOf(ctx, stored);
      if (Object.keys(body).length === 0) ctx.fail(`nothing to change\n\n${UPDATE_USAGE}`);
      const s = await ctx.call('PATCH', path, body);
      ctx.show(s, () => {
        console.log('Updated MCP server:');
        printServer(s);
      });
    },
  },
  {
    name: 'mcp-servers remove',
    operations: BOTH('DELETE', '/{server}'),
    usage: REMOVE_USAGE,
    help: "removes a server (a global one with the tenants' tokens for it)",
    async run(ctx) {
      const path = serverPath(ctx, REMOVE_USAGE);
      await ctx.call('DELETE', path);
      const id = ctx.args[0];
      ctx.show({ deleted: true, id }, () => console.log(`Removed MCP server ${id}.`));
    },
  },
  {
    name: 'mcp-servers token',
    operations: [
      'PUT /admin/tenants/{id}/mcp-servers/{server}/token',
      'DELETE /admin/tenants/{id}/mcp-servers/{server}/token',
    ],
    usage: TOKEN_USAGE,
    help: "a tenant's own token for a global tenant_token server: set (stored encrypted, only its hint shown) or remove",
    async run(ctx) {
      const { opts, fail, args } = ctx;
      const [verb, server] = args;
      if ((verb !== 'set' && verb !== 'remove') || !server || !opts.tenant) fail(`usage:\n  ${TOKEN_USAGE}`);
      const path = `/tenants/${encodeURIComponent(opts.tenant)}/mcp-servers/${encodeURIComponent(server)}/token`;
      if (verb === 'remove') {
        await ctx.call('DELETE', path);
        return ctx.show({ deleted: true, server_id: server, tenant_id: opts.tenant }, () =>
          console.log(`Removed tenant ${opts.tenant}'s token for MCP server ${server}.`),
        );
      }
      const token = secretFrom(ctx, 'token');
      if (token === undefined) fail(`give --token or --token-env\n\n${TOKEN_USAGE}`);
      const t = await ctx.call('PUT', path, { token });
      ctx.show(t, () => console.log(`Stored tenant ${t.tenant_id}'s token for ${t.server_id} (${t.hint}).`));
    },
  },
];

export const mcpServerOptions = {
  namespace: { type: 'string' },
  url: { type: 'string' },
  transport: { type: 'string' },
  description: { type: 'string' },
  auth: { type: 'string' },
  header: { type: 'string' },
  secret: { type: 'string' },
  'secret-env': { type: 'string' },
  token: { type: 'string' },
  'token-env': { type: 'string' },
  'timeout-ms': { type: 'string' },
};
