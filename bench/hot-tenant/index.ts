/**
 * The hot-tenant bench driver: a Worker whose every request is one limited
 * request of one tenant, put through the gateway's real limits code
 * (durableLimiter, readLimitsConfig, priceBook) against the real Limiter
 * Durable Object, and nothing else (no auth, no upstream). Several copies run
 * as separate isolates bound to one host's Limiter class, so they share one
 * object per tenant (bench/lib/workloads/hot-tenant.mjs starts them).
 *
 *   GET /?tenant=<id>&usd=<tenant usd.day budget>   reserve, answer, settle in waitUntil
 *       200 admitted · the limiter's status otherwise (429 refused, 503 limiter_unavailable)
 *   POST /users?tenant=<id>&usd=<…>  {"user": "<id>"}
 *       the same for one end user of a tenant whose end users are each held to END_USER_DEFAULT
 *       (read from the body by the pipeline's own endUserOf); what is settled is also kept per user
 *   GET /__stats                                     this isolate's counters (JSON)
 *   GET /__dump?tenant=<id>                          the tenant's ledger as the object holds it (not counted)
 *   POST /__users?tenant=<id>  ["<user id>", …]      what this isolate settled for each of those users of the tenant
 *   GET /__userdump?tenant=<id>&user=<id>            that user's counters as their shard holds them (not counted)
 */
import { GatewayError } from '../../src/core/errors';
import { KeyRecord } from '../../src/core/key-record';
import { NO_SCOPE, type RequestScope } from '../../src/core/limiter';
import type { Principal } from '../../src/core/principal';
import type { Limiter as LimiterClass } from '../../src/durable/limiter';
import { readLimitsConfig, type LimitsVars } from '../../src/limits/config';
import { durableLimiter } from '../../src/limits/durable-limiter';
import { endUserOf } from '../../src/limits/end-user';
import { USER_SHARDS, userShard } from '../../src/limits/shards';
import { priceBook } from '../../src/limits/price-overrides';
import { countedStub, newTally } from './counted-stub';
import { CHARGE, END_USER_DEFAULT, MODEL, REQUEST, USAGE } from './request';

export { Limiter } from '../../src/durable/limiter';

interface Env extends LimitsVars {
  readonly LIMITER: DurableObjectNamespace<LimiterClass>;
  readonly KV: KVNamespace;
  /** Names this isolate's key, so each driver copy is one key of the tenant. */
  readonly DRIVER: string;
}

const tally = newTally();
const counts = { requests: 0, admitted: 0, refused: 0, errors: {} as Record<string, number> };
const settled = { count: 0, tokens: 0, nanos: 0 };
/** What was settled for each end user, by tenant and user id (the end-user run's ledger check reads a sample). */
const settledByUser = new Map<string, { count: number; tokens: number; nanos: number }>();
const principals = new Map<string, Principal>();
const userKey = (tenant: string, user: string) => `${tenant}\n${user}`;
let built: { env: Env; limiter: Limiter } | null = null;
type Limiter = ReturnType<typeof durableLimiter>;

function limiterFor(env: Env): Limiter {
  if (built?.env !== env)
    built = {
      env,
      limiter: durableLimiter({
        // Called with the tenant's id or one of its end-user shards' names (src/limits/shards.ts).
        objectFor: (name) => countedStub(env.LIMITER.get(env.LIMITER.idFromName(name)), tally, name),
        prices: priceBook(env.KV),
        config: readLimitsConfig(env),
      }),
    };
  return built.limiter;
}

/**
 * The tenant's only budget is `usd` a day; rates far above anything the bench sends. With `endUsers`,
 * every end user of the tenant is also held to END_USER_DEFAULT.
 */
function principalFor(tenantId: string, usd: number, driver: string, endUsers: boolean): Principal {
  const memo = `${tenantId} ${usd} ${endUsers}`;
  let p = principals.get(memo);
  if (!p) {
    p = KeyRecord.parse({
      id: `key_${driver}`,
      tenantId,
      status: 'active',
      models: null,
      expiresAt: null,
      tenantLimits: { rpm: 100_000_000, tpm: 1_000_000_000 },
      tenantBudgets: { usd: { day: usd } },
      ...(endUsers ? { tenantScopes: { end_users: END_USER_DEFAULT } } : {}),
    });
    principals.set(memo, p);
  }
  return p;
}

async function limited(
  url: URL,
  env: Env,
  ctx: ExecutionContext,
  scope: RequestScope = NO_SCOPE,
): Promise<Response> {
  counts.requests++;
  const tenant = url.searchParams.get('tenant') ?? 'hot';
  const usd = Number(url.searchParams.get('usd') ?? '1000');
  const user = scope.endUser?.id ?? null;
  try {
    const principal = principalFor(tenant, usd, env.DRIVER, user !== null);
    const reservation = await limiterFor(env).reserve(principal, REQUEST, [REQUEST.model], scope);
    counts.admitted++;
    // What the request leaves running past its answer (a lease's closing report), kept as the pipeline keeps it.
    const { background } = reservation as { background?: Promise<void> };
    if (background) ctx.waitUntil(background);
    ctx.waitUntil(
      reservation.settle(USAGE, undefined, MODEL).then(() => {
        settled.count++;
        settled.tokens += CHARGE.tokens;
        settled.nanos += CHARGE.nanos;
        if (user === null) return;
        const mine = settledByUser.get(userKey(tenant, user)) ?? { count: 0, tokens: 0, nanos: 0 };
        mine.count++;
        mine.tokens += CHARGE.tokens;
        mine.nanos += CHARGE.nanos;
        settledByUser.set(userKey(tenant, user), mine);
      }),
    );
    return new Response(null, { status: 200 });
  } catch (err) {
    const status = err instanceof GatewayError ? err.status : 500;
    if (status === 429) counts.refused++;
    else {
      const code = err instanceof GatewayError ? (err.code ?? String(status)) : 'exception';
      counts.errors[code] = (counts.errors[code] ?? 0) + 1;
    }
    return new Response(null, { status });
  }
}

export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    if (url.pathname === '/__stats')
      return Response.json({
        driver: env.DRIVER,
        ...counts,
        settled,
        objectCalls: tally,
        charge: CHARGE,
        endUsers: { shards: USER_SHARDS, default: END_USER_DEFAULT },
      });
    if (url.pathname === '/__dump') {
      const stub = env.LIMITER.get(env.LIMITER.idFromName(url.searchParams.get('tenant') ?? 'hot'));
      return Response.json(await stub.dump(null));
    }
    if (url.pathname === '/__users') {
      const tenant = url.searchParams.get('tenant') ?? 'hot';
      const users = (await request.json()) as string[];
      const zero = { count: 0, tokens: 0, nanos: 0 };
      return Response.json(
        Object.fromEntries(users.map((u) => [u, settledByUser.get(userKey(tenant, u)) ?? zero])),
      );
    }
    if (url.pathname === '/__userdump') {
      const stub = userShard(
        env.LIMITER,
        url.searchParams.get('tenant') ?? 'hot',
        url.searchParams.get('user') ?? '',
      );
      return Response.json(await stub.userState(url.searchParams.get('user') ?? ''));
    }
    if (url.pathname === '/users') {
      let endUser: RequestScope['endUser'];
      try {
        endUser = endUserOf(request.headers, (await request.json()) as Record<string, unknown>);
      } catch {
        counts.errors.invalid_end_user = (counts.errors.invalid_end_user ?? 0) + 1;
        return new Response(null, { status: 400 });
      }
      return limited(url, env, ctx, { endUser, tags: null });
    }
    return limited(url, env, ctx);
  },
} satisfies ExportedHandler<Env>;
