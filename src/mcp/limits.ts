/**
 * Tool-call limits (docs/mcp.md, "Limits"): calls per minute and per UTC day for the key, its tenant and
 * each end user, held in the same Limiter objects as the model budgets (src/durable/limiter.ts) under
 * scopes of their own (`tools:key:<id>`, `tools:tenant`, `tools:user:<id>`), so a call is counted exactly
 * under any concurrency: reserved before the upstream call (a minute-window request and a day's request
 * budget, no tokens nor dollars), settled after it. A refused scope gives back what the other object held.
 * A Limiter that fails follows LIMITS_FAIL_MODE like the model path.
 */
import type { McpCalls } from '../core/mcp-settings';
import type { Principal } from '../core/principal';
import type { EndUser } from '../limits/end-user';
import type { LimitsConfig } from '../limits/config';
import type { LimiterRpc, ReserveResult, ScopeKind, ScopeSpec } from '../limits/protocol';
import { shardOf, userShardName } from '../limits/shards';
import { within } from '../util/within';
import { MCP_CODES, McpFailure } from './failure';

const NO_CHARGE = { tokens: 0, nanos: 0 };

export interface CallScopes {
  readonly object: readonly ScopeSpec[];
  readonly user: ScopeSpec | null;
}

function spec(id: string, kind: ScopeKind, calls: McpCalls, user: EndUser | null): ScopeSpec {
  return {
    id,
    kind,
    label: user?.id ?? null,
    param: user?.param ?? null,
    settings: {
      limits: calls.per_minute === undefined ? {} : { rpm: calls.per_minute },
      budgets: calls.per_day === undefined ? {} : { requests: { day: calls.per_day } },
    },
  };
}

/** The limited scopes one tool call is counted in (pure); none when nothing is limited. */
export function callScopes(principal: Principal, endUser: EndUser | null): CallScopes {
  const key = principal.scopes.mcp?.calls ?? null;
  const tenant = principal.tenantScopes.mcp?.calls ?? null;
  const perUser = principal.tenantScopes.mcp?.end_user_calls ?? null;
  const object: ScopeSpec[] = [];
  if (key) object.push(spec(`tools:key:${principal.id}`, 'key', key, null));
  if (tenant) object.push(spec('tools:tenant', 'tenant', tenant, null));
  const user = perUser && endUser ? spec(`tools:user:${endUser.id}`, 'user', perUser, endUser) : null;
  return { object, user };
}

/** A held call: settle it once the upstream answered (or failed), counting it. */
export type Held = () => Promise<void>;

export async function holdCall(
  principal: Principal,
  scopes: CallScopes,
  objectFor: (name: string) => LimiterRpc,
  config: LimitsConfig,
): Promise<Held> {
  const asks: { name: string; scopes: readonly ScopeSpec[] }[] = [];
  if (scopes.object.length > 0) asks.push({ name: principal.tenantId, scopes: scopes.object });
  if (scopes.user)
    asks.push({
      name: userShardName(principal.tenantId, shardOf(scopes.user.label ?? '')),
      scopes: [scopes.user],
    });
  if (asks.length === 0) return async () => {};
  const results = await Promise.all(
    asks.map(({ name, scopes }) =>
      ask(config, () =>
        objectFor(name).reserve({
          scopes,
          tenantId: principal.tenantId,
          cost: NO_CHARGE,
          ttlMs: config.reservationTtlMs,
        }),
      ),
    ),
  );
  const held = results.flatMap((r, i) => (r?.ok ? [{ name: asks[i]!.name, id: r.id }] : []));
  const refused = results.find((r): r is Exclude<ReserveResult, { ok: true }> => r !== null && !r.ok);
  if (refused) {
    // Given back uncounted (requests 0): the call was not made.
    await Promise.all(
      held.map(({ name, id }) =>
        objectFor(name)
          .settle(id, null, 0)
          .catch(() => false),
      ),
    );
    throw refusal(refused);
  }
  return async () => {
    await Promise.all(
      held.map(({ name, id }) =>
        objectFor(name)
          .settle(id, NO_CHARGE)
          .catch((err: unknown) => {
            console.error('tool-call settle failed; the reservation will expire', String(err));
            return false;
          }),
      ),
    );
  };
}

/** One reserve with the Limiter timeout; a failure follows the fail mode (null: through unmetered). */
async function ask(
  config: LimitsConfig,
  reserve: () => Promise<ReserveResult>,
): Promise<ReserveResult | null> {
  try {
    return await within(config.timeoutMs, reserve());
  } catch (err) {
    console.error(
      'tool-call limiter failed',
      config.failMode,
      err instanceof Error ? err.message : String(err),
    );
    if (config.failMode === 'open') return null;
    throw new McpFailure(
      MCP_CODES.unavailable,
      'Tool-call limits could not be checked, so the call was not made. Retry shortly.',
      503,
      'limiter_unavailable',
    );
  }
}

function refusal(result: Exclude<ReserveResult, { ok: true }>): McpFailure {
  if (!('denial' in result)) {
    return new McpFailure(
      MCP_CODES.unavailable,
      'Tool-call limits could not be checked.',
      500,
      'limiter_refused',
    );
  }
  const d = result.denial;
  const owner =
    d.scope === 'user'
      ? `end user '${d.scopeId ?? ''}'`
      : d.scope === 'key'
        ? 'this key'
        : "this key's tenant";
  const per = d.kind === 'rpm' ? 'tool calls per minute' : 'tool calls a day';
  const wait =
    d.retryAfterMs === null ? '' : ` Retry after ${Math.max(1, Math.ceil(d.retryAfterMs / 1000))} s.`;
  const message = `Tool-call limit reached: the ${per} of ${owner} is ${d.limit}, with ${d.used} used.${wait}`;
  return new McpFailure(MCP_CODES.rateLimited, message, 429, 'rate_limited', {
    scope: d.scope,
    scope_id: d.scopeId ?? null,
    kind: d.kind,
    limit: d.limit,
    retry_after_ms: d.retryAfterMs,
  });
}
