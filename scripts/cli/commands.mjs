// The admin CLI's command table: every command, the admin API operations ("METHOD /admin/path", as in the
// OpenAPI document) it calls, and its usage line. Commands with `run` are carried out from here; the others
// are the original commands, handled by their `case` in scripts/admin.mjs. A test checks this table against
// the OpenAPI document and admin.mjs both ways, so a new admin route without a command fails it.
import { adminCommands, adminOptions } from './admins.mjs';
import { alertCommands } from './alerts.mjs';
import { analyticsCommands, analyticsOptions } from './analytics.mjs';
import { endUserCommands, endUserOptions } from './end-users.mjs';
import { limitCommands, limitOptions } from './limits.mjs';
import { logCommands, logOptions } from './logs.mjs';
import { mcpServerCommands, mcpServerOptions } from './mcp-servers.mjs';
import { metricsCommands } from './metrics.mjs';
import { pricingCommands, pricingOptions } from './pricing.mjs';
import { routeCommands } from './routes.mjs';
import { updateCommands, updateOptions } from './updates.mjs';
import { usageCommands, usageOptions } from './usage.mjs';

const TENANT = '/admin/tenants/{id}';
const KEY = '/admin/keys/{id}';
const PROVIDER_KEY = '/admin/tenants/{id}/provider-keys/{provider}';

/** The original commands: their usage lines are in admin.mjs's USAGE; here only what they call. */
const HANDLED_IN_ADMIN = [
  { name: 'tenants create', operations: ['POST /admin/tenants'] },
  { name: 'tenants list', operations: ['GET /admin/tenants'] },
  { name: 'tenants get', operations: [`GET ${TENANT}`] },
  { name: 'tenants disable', operations: [`POST ${TENANT}/disable`] },
  { name: 'tenants enable', operations: [`POST ${TENANT}/enable`] },
  { name: 'keys create', operations: ['POST /admin/keys'] },
  { name: 'keys list', operations: ['GET /admin/keys'] },
  { name: 'keys get', operations: [`GET ${KEY}`] },
  { name: 'keys rotate', operations: [`POST ${KEY}/rotate`] },
  { name: 'keys revoke', operations: [`DELETE ${KEY}`] },
  { name: 'keys origins', operations: [`GET ${KEY}`, `PATCH ${KEY}`] },
  { name: 'provider-keys set', operations: [`PUT ${PROVIDER_KEY}`] },
  { name: 'provider-keys list', operations: ['GET /admin/tenants/{id}/provider-keys'] },
  { name: 'provider-keys delete', operations: [`DELETE ${PROVIDER_KEY}`] },
  { name: 'providers list', operations: ['GET /admin/providers'] },
  { name: 'routes create', operations: ['POST /admin/routes'] },
  { name: 'routes list', operations: ['GET /admin/routes'] },
  { name: 'routes get', operations: ['GET /admin/routes/{id}'] },
  { name: 'routes update', operations: ['PATCH /admin/routes/{id}'] },
  { name: 'routes delete', operations: ['DELETE /admin/routes/{id}'] },
  { name: 'logs reconcile', operations: ['GET /admin/logs/reconcile'] },
  { name: 'guardrails get', operations: [`GET ${TENANT}`, `GET ${KEY}`] },
  { name: 'guardrails set', operations: [`GET ${TENANT}`, `GET ${KEY}`, `PATCH ${TENANT}`, `PATCH ${KEY}`] },
];

/** Commands carried out from this table, grouped as `help` prints them. */
export const TABLE_COMMANDS = [
  ...updateCommands,
  ...limitCommands,
  ...endUserCommands,
  ...alertCommands,
  ...mcpServerCommands,
  ...pricingCommands,
  ...routeCommands,
  ...logCommands,
  ...usageCommands,
  ...analyticsCommands,
  ...metricsCommands,
  ...adminCommands,
];

export const COMMANDS = [...HANDLED_IN_ADMIN, ...TABLE_COMMANDS];

/** parseArgs options the table's commands add to admin.mjs's own. */
export const CLI_OPTIONS = {
  ...updateOptions,
  ...limitOptions,
  ...endUserOptions,
  ...mcpServerOptions,
  ...pricingOptions,
  ...logOptions,
  ...usageOptions,
  ...analyticsOptions,
  ...adminOptions,
};

/** The command the positionals name (`usage` is one word, the rest two; `whoami` is `me`), or undefined. */
export function findCommand(positionals) {
  const [resource, action] = positionals;
  return COMMANDS.find(
    (c) => c.name === resource || c.name === `${resource} ${action}` || c.aliases?.includes(resource),
  );
}

/** The usage lines of the table's commands, for `help`. */
export function tableUsage() {
  return TABLE_COMMANDS.map((c) => `  ${c.usage}\n${' '.repeat(26)}${c.help}`).join('\n');
}

/** Every command group (the first word), for `help`'s summary line. */
export const GROUPS = [...new Set(COMMANDS.map((c) => c.name.split(' ')[0]))];
