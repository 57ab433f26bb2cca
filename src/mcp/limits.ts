/**
 * Tool-call limits (docs/mcp.md, "Tool-call limits"): calls per minute and per UTC day for the key, its
 * tenant and each end user, held in the same Limiter objects as the model budgets (src/durable/limiter.ts)
 * under scopes of their own (`tools:key:<id>`, `tools:tenant`, `tools:user:<id>`), so a call is counted
 * exactly under any concurrency. A call is a request that costs nothing: it takes a minute-window request
 * and a day's request budget, no tokens nor dollars, through the Limiter port's counting side (leases for
 * a busy key or end user, like /v1; src/limits/durable-limiter.ts). A refusal is an McpFailure naming the
 * scope; a Limiter that fails follows LIMITS_FAIL_MODE like the model path.
 */
import { GatewayError } from '../core/errors';
import type { McpCalls } from '../core/mcp-settings';
import type { Principal } from '../core/principal';
import type { EndUser } from '../limits/end-user';
import type { CountingLimiter } from '../limits/durable-limiter';
import type { ScopeKind, ScopeSpec } from '../limits/protocol';
import type { ScopePlan } from '../limits/scopes';
import { MCP_CODES, McpFailure } from './failure';

/** The lease slot of a key's tool calls in its tenant's object, apart from its model requests'. */
const SLOT = 'tools';

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
export function callScopes(principal: Principal, endUser: EndUser | null): ScopePlan {
  const key = principal.scopes.mcp?.calls ?? null;
  const tenant = principal.tenantScopes.mcp?.calls ?? null;
  const perUser = principal.tenantScopes.mcp?.end_user_calls ?? null;
  const object: ScopeSpec[] = [];
  if (key) object.push(spec(`tools:key:${principal.id}`, 'key', key, null));
  if (tenant) object.push(spec('tools:tenant', 'tenant', tenant, null));
  const user = perUser && endUser ? spec(`tools:user:${endUser.id}`, 'user', perUser, endUser) : null;
  return { object, user };
}

/** A held call: count it once the upstream answered (or failed). */
export type Held = () => Promise<void>;

export async function holdCall(
  principal: Principal,
  plan: ScopePlan,
  counter: CountingLimiter,
  keep: (work: Promise<unknown>) => void,
): Promise<Held> {
  try {
    const reservation = await counter.reserveCount(principal, plan, SLOT, {
      endUser: null,
      tags: null,
      keep,
    });
    if (reservation.background) keep(reservation.background);
    return () => reservation.settle(null);
  } catch (err) {
    throw err instanceof GatewayError ? refusal(err) : err;
  }
}

/** The Limiter's 429 (or its 503 when it cannot be asked) as the JSON-RPC error a client gets. */
function refusal(err: GatewayError): McpFailure {
  const limit = err.details?.limit as
    | { scope: string; scope_id?: string; kind: string; limit: number; used: number }
    | undefined;
  if (err.status !== 429 || !limit) {
    return new McpFailure(
      MCP_CODES.unavailable,
      'Tool-call limits could not be checked, so the call was not made. Retry shortly.',
      err.status,
      err.code ?? 'limiter_unavailable',
    );
  }
  const retry = Number(err.headers['retry-after']);
  const retryAfterMs = Number.isFinite(retry) ? retry * 1000 : null;
  const owner =
    limit.scope === 'user'
      ? `end user '${limit.scope_id ?? ''}'`
      : limit.scope === 'key'
        ? 'this key'
        : "this key's tenant";
  const per = limit.kind === 'rpm' ? 'tool calls per minute' : 'tool calls a day';
  const wait = retryAfterMs === null ? '' : ` Retry after ${Math.max(1, Math.round(retryAfterMs / 1000))} s.`;
  return new McpFailure(
    MCP_CODES.rateLimited,
    `Tool-call limit reached: the ${per} of ${owner} is ${limit.limit}, with ${limit.used} used.${wait}`,
    429,
    'rate_limited',
    {
      scope: limit.scope,
      scope_id: limit.scope_id ?? null,
      kind: limit.kind,
      limit: limit.limit,
      retry_after_ms: retryAfterMs,
    },
  );
}
