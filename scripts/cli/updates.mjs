// `tenants update` and `keys update`: PATCH a tenant or key. Flags cover the common fields; --file gives
// any field of the API's body (limits, budgets, cache, metadata…) as JSON. Each given field is replaced whole.
// --responses-retention sets how many days a tenant's stored responses (POST /v1/responses) are kept.
// The --mcp-… flags (mcp-settings.mjs) merge into the stored `mcp` settings, read first.
import { readFileSync } from 'node:fs';
import {
  MCP_FLAGS_USAGE,
  MCP_TENANT_FLAGS_USAGE,
  mcpFlagsGiven,
  mcpSettingsOptions,
  mergedMcp,
} from './mcp-settings.mjs';
import { commaList, positional } from './util.mjs';

function fileBody({ opts, fail }) {
  if (opts.file === undefined) return {};
  let body;
  try {
    body = JSON.parse(readFileSync(opts.file, 'utf8'));
  } catch (err) {
    fail(`--file ${opts.file}: ${err.message}`);
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    fail(`--file ${opts.file}: expected a JSON object (the fields to change)`);
  return body;
}

function onOff({ fail }, flag, raw) {
  if (raw === undefined) return undefined;
  if (raw === 'on' || raw === 'off') return raw === 'on';
  fail(`--${flag}: expected on or off, got '${raw}'`);
}

/** The PATCH body: the file's fields, then the flags over them; empty is refused before any call. */
function patchBody(ctx, usage, extra = {}) {
  const body = {
    ...fileBody(ctx),
    ...(ctx.opts.name === undefined ? {} : { name: ctx.opts.name }),
    ...extra,
  };
  for (const [field, value] of Object.entries(body)) if (value === undefined) delete body[field];
  if (Object.keys(body).length === 0) ctx.fail(`nothing to change\n\n${usage}`);
  return body;
}

/** --responses-retention: whole days (0 keeps none), or `default` for the deployment's; the API checks the range. */
function retentionDays({ fail }, raw) {
  if (raw === undefined) return undefined;
  if (raw === 'default') return null;
  if (/^\d+$/.test(raw)) return Number(raw);
  fail(`--responses-retention: expected a number of days or default, got '${raw}'`);
}

const summary = (thing) =>
  Object.entries(thing)
    .filter(([field]) => !['id', 'object'].includes(field))
    .map(([field, value]) => `  ${field.padEnd(13)} ${JSON.stringify(value)}`)
    .join('\n');

const TENANT_USAGE =
  'tenants update <tenant_id> [--name <name>] [--responses-retention <days>|default]\n' +
  '      [--on-unsupported drop|refuse] [--file patch.json]\n' +
  `      ${MCP_FLAGS_USAGE}\n      ${MCP_TENANT_FLAGS_USAGE}`;
const KEY_USAGE =
  'keys update <key_id> [--name <name>] [--models a,b] [--origins a,b] [--expires <ISO date>|never]\n' +
  '      [--log-payload on|off] [--on-unsupported drop|refuse] [--file patch.json]\n' +
  `      ${MCP_FLAGS_USAGE}`;

/** The `mcp` field of the PATCH when an --mcp-… flag is given: the stored settings with the flags merged in. */
async function mcpField(ctx, path, tenant) {
  if (!mcpFlagsGiven(ctx.opts)) return undefined;
  const stored = ctx.opts['mcp-clear'] ? undefined : (await ctx.call('GET', path)).mcp;
  return mergedMcp(ctx, stored, { tenant });
}

export const updateCommands = [
  {
    name: 'tenants update',
    operations: ['GET /admin/tenants/{id}', 'PATCH /admin/tenants/{id}'],
    usage: TENANT_USAGE,
    help: "changes a tenant; --responses-retention: days its stored responses are kept (0: none; default: the deployment's); --mcp-…: its MCP tool allow-list and call limits (docs/mcp.md); --file holds any fields of the body (limits, budgets, metadata…)",
    async run(ctx) {
      const id = positional(ctx, 0, 'tenant_id', TENANT_USAGE);
      const path = `/tenants/${encodeURIComponent(id)}`;
      const body = patchBody(ctx, TENANT_USAGE, {
        responses_retention_days: retentionDays(ctx, ctx.opts['responses-retention']),
        on_unsupported: ctx.opts['on-unsupported'],
        mcp: await mcpField(ctx, path, true),
      });
      const t = await ctx.call('PATCH', path, body);
      ctx.show(t, () => {
        console.log(`Updated tenant ${t.id}:\n${summary(t)}`);
        for (const w of t.warnings ?? []) console.error(`Warning: ${w.message}`);
      });
    },
  },
  {
    name: 'keys update',
    operations: ['GET /admin/keys/{id}', 'PATCH /admin/keys/{id}'],
    usage: KEY_USAGE,
    help: "changes a key; --mcp-…: its MCP tool allow-list (within its tenant's) and call limits; --file holds any fields of the body (limits, budgets, cache, metadata…)",
    async run(ctx) {
      const { opts, fail } = ctx;
      const id = positional(ctx, 0, 'key_id', KEY_USAGE);
      let expires;
      if (opts.expires === 'never') expires = null;
      else if (opts.expires !== undefined) {
        expires = Date.parse(opts.expires);
        if (Number.isNaN(expires)) fail(`--expires: not a date: ${opts.expires}`);
      }
      const body = patchBody(ctx, KEY_USAGE, {
        models: opts.models === undefined ? undefined : commaList(opts.models),
        origins: opts.origins === undefined ? undefined : commaList(opts.origins),
        expires_at: expires,
        log_payload: onOff(ctx, 'log-payload', opts['log-payload']),
        on_unsupported: opts['on-unsupported'],
        mcp: await mcpField(ctx, `/keys/${encodeURIComponent(id)}`, false),
      });
      const k = await ctx.call('PATCH', `/keys/${encodeURIComponent(id)}`, body);
      ctx.show(k, () => console.log(`Updated key ${k.id} (${k.hint}):\n${summary(k)}`));
    },
  },
];

export const updateOptions = {
  'log-payload': { type: 'string' },
  'responses-retention': { type: 'string' },
  'on-unsupported': { type: 'string' },
  ...mcpSettingsOptions,
};
