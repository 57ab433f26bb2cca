/**
 * The two ways an upstream answer reaches the client: a relayed stream (usage
 * and completeness known when it ends) or a JSON body (read once, parsed once
 * for usage). Both settle the limits reservation and hand complete 2xx answers
 * to the cache, off the response path.
 */
import type { Context } from 'hono';
import type { ProxyRequest } from '../api/request';
import { usageFromJson } from '../api/usage';
import { anthropicAssembler, openAiAssembler } from '../cache/assemble';
import type { CachedEntry } from '../cache/entry';
import type { AppEnv } from '../context';
import { GatewayError } from '../errors';
import { anthropicObserver, openAiObserver } from '../sse/observer';
import { type CachePlan, cacheEntry, storeCache } from './cache';
import type { Reservation } from './limits';
import type { Dispatched, Route } from './route';
import { relay } from './stream';

export interface RespondContext {
  readonly c: Context<AppEnv>;
  readonly request: ProxyRequest;
  readonly route: Route;
  readonly dispatched: Dispatched;
  readonly reservation: Reservation;
  readonly plan: CachePlan;
  /** Hands the answer (or null) to identical requests waiting on this one; call once. */
  readonly release: (entry: CachedEntry | null) => void;
  readonly headers: Headers;
}

export function respondStream(ctx: RespondContext): Response {
  const { c, request, route, dispatched, reservation, plan, release, headers } = ctx;
  const { record, deps } = c.var;
  const format = route.target.format;
  const assembler = plan.directives.store ? (format === 'anthropic' ? anthropicAssembler() : openAiAssembler()) : null;
  const onChunk = assembler ? assembler.push.bind(assembler) : undefined;
  const capture = record.payload?.maxBytes ?? 0;
  const observer = format === 'anthropic' ? anthropicObserver({ onChunk, capture }) : openAiObserver({ stripUsage: !request.clientWantsUsage, onChunk, capture });
  record.ttftMs = performance.now() - c.var.startedAt;
  const { body, outcome } = relay({
    reader: dispatched.reader!,
    first: dispatched.first ?? null,
    observer,
    idleTimeoutMs: deps.config.idleTimeoutMs,
    abortUpstream: () => dispatched.abort.abort(),
  });
  record.done = outcome.then(async (o) => {
    record.usage = o.usage;
    record.streamCompleted = o.completed;
    if (record.payload) record.payload.response = observer.captured;
    record.lateError = o.error?.code ?? (o.cancelledByClient ? 'client_disconnected' : null);
    const entry = o.completed && assembler ? cacheEntry(request, format, assembler.result(), o.usage, Date.now()) : null;
    release(entry);
    await Promise.all([reservation.settle(o.usage, o), entry ? storeCache(deps.cache, plan, entry) : null]);
  });
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-cache');
  return new Response(body, { status: dispatched.response.status, headers });
}

export async function respondJson(ctx: RespondContext): Promise<Response> {
  const { c, request, route, dispatched, reservation, plan, release, headers } = ctx;
  const { record, deps } = c.var;
  const text = await dispatched.response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    release(null);
    c.executionCtx.waitUntil(reservation.settle(null));
    throw new GatewayError(502, 'The provider returned a body that is not JSON.', { code: 'bad_upstream_response', source: 'provider' });
  }
  record.usage = usageFromJson(route.target.format, parsed);
  if (record.payload) record.payload.response = text;
  const entry = plan.directives.store ? cacheEntry(request, route.target.format, parsed, record.usage, Date.now()) : null;
  release(entry);
  // A 2xx without usage is never free: the limiter charges an estimate from the body's size.
  const settled = record.usage ? reservation.settle(record.usage) : reservation.settle(null, { completed: true, deliveredChars: text.length });
  c.executionCtx.waitUntil(Promise.all([settled, entry ? storeCache(deps.cache, plan, entry) : null]));
  headers.set('content-type', 'application/json');
  return new Response(text, { status: dispatched.response.status, headers });
}
