/**
 * The request pipeline, in order, written once for every /v1 endpoint:
 *
 *   auth → policy → limits ∥ cache → route → stream → log
 *
 * Each stage is one module of this folder; this file only calls them in
 * order and records what they learn on the request's exchange. The limits
 * reservation and the cache lookup run concurrently: neither needs the other,
 * and both must finish before the upstream call. The route is resolved (a
 * pure lookup, no I/O) just before them, because the cache key names the
 * provider; the upstream call comes after them. Whatever a stage takes that
 * must be given back (reservation, cache lease, upstream connection) it
 * registers on the exchange as it takes it; the exchange's one exit
 * (src/pipeline/exit.ts) gives it all back and writes the log, however the
 * request ends. Nothing here cleans up on a branch.
 */
import { readJsonBody } from '../api/read-body';
import { CLIENT_CODECS } from '../codecs/index';
import { ENDPOINTS, type Endpoint } from '../core/endpoints';
import { capturePayload } from '../core/payload';
import { passHeaders } from '../providers/pass-headers';
import { parseProxyRequest } from '../core/request';
import type { Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { admit, clientModel } from './admit';
import { type Expanded, expandConversation, keepResponse, storedUntil } from './conversation';
import type { GatewayCall } from './call';
import { cachedResponse, hitAnswer, lookupCache, planCache, ROUTE_CACHE_SCOPE } from './cache';
import { reserve } from './limits';
import { DowngradeRequired, type RequestScope } from '../core/limiter';
import { endUserOf } from '../limits/end-user';
import { tagsOf } from '../limits/scopes';
import { enforcePolicy } from './policy';
import { guardedHit, guardStage, refusalError } from './guard';
import { attemptsHeader, requestTimeout } from './request-headers';
import { respondJson, respondStream } from './respond';
import { callTargets, prepareFirst } from './route/fallback';
import { UPSTREAM_REQUEST_ID, upstreamRequestId } from './route/upstream';
import { planCalls } from './route/targets';

export function proxy(endpoint: Endpoint) {
  const spec = ENDPOINTS[endpoint];
  const codec = CLIENT_CODECS[spec.format];
  return async function proxyRequest(inbound: GatewayCall): Promise<Response> {
    const { deps, exchange: x, env, ctx } = inbound;
    const headers = inbound.request.headers;
    const waitUntil = ctx.waitUntil.bind(ctx);

    // 1. auth, then the body, read and parsed once.
    const principal = await admit(inbound, codec.acceptsApiKeyHeader);
    let body = await readJsonBody(inbound.request, deps.config.maxBodyBytes);
    // The model as the client sent it, for the log even when it is refused (the log cuts a long one).
    x.model = clientModel(body);
    // A stored conversation the body continues becomes its input (a no-op for a body that names none).
    const stored = spec.stored ? await expandConversation(inbound, principal, body) : null;
    if (stored) body = stored.body;
    let request = parseProxyRequest(endpoint, body);
    x.stream = request.stream;
    // Kept answers pay for assembly and a write; every other request pays nothing (store: false, retention 0).
    const keep =
      stored && storedUntil(inbound, principal, request.body, Date.now()) !== null
        ? keeper(inbound, principal, stored, request)
        : undefined;

    // 2. policy, before anything about providers is looked at. The guardrails judge the body and redact it in
    // place first, so the payload log, the cache key and the provider only ever see the redacted body; a
    // blocked request is refused here, before anything is reserved or sent.
    const guarding = guardStage(x, principal, request);
    x.payload = capturePayload(principal, headers, request.body, env.LOG_PAYLOAD_MAX_BYTES);
    enforcePolicy(principal, request, Date.now());
    if (guarding?.refused) throw guarding.refused;
    guarding?.consult(deps.secondOpinion, waitUntil);

    // 3. limits: who below the key the request is for (its end user, its tags) is read once, here.
    const endUser = endUserOf(headers, request.body);
    x.endUser = endUser?.id ?? null;
    x.tags = tagsOf(principal, x.metadata);
    const scope: RequestScope = { endUser, tags: x.tags, keep: (work) => x.keep(work) };

    // 5a. route: what `model` names (one provider/model, or a named route's targets in this request's
    // order), and the first target's key, adapter and body, translated when the provider speaks another
    // format: a field that cannot be carried is refused here, before anything is reserved.
    // 3 ∥ 4. limits and cache, concurrently. A route reserves at its dearest target's price and is
    // charged at the price of the one that answered; its answers are cached under the route's name.
    // A scope's spend-triggered downgrade sends the request to its route instead, planned and reserved again.
    let planned = await planAndReserve(inbound, principal, request, scope);
    if (planned instanceof DowngradeRequired) {
      const reason = planned;
      request = parseProxyRequest(endpoint, { ...request.body, model: reason.route });
      planned = await planAndReserve(inbound, principal, request, { ...scope, downgraded: true });
      if (planned instanceof DowngradeRequired) throw new Error('a downgraded request was downgraded again');
      planned.out.set(DOWNGRADE_HEADER, `${reason.route}; ${reason.reason}`);
    }
    const { plan, prepare, first, cachePlan, lookup, out } = planned;
    x.cache = lookup.status;
    if (lookup.entry) {
      if (lookup.score !== null) out.set('x-edgeway-cache-similarity', lookup.score.toFixed(4));
      // A hit is judged by the caller's answer policy like any answer: it never bypasses redaction.
      const { entry, refusal } = guarding
        ? await guardedHit(guarding, lookup.entry)
        : { entry: lookup.entry, refusal: null };
      x.answered(hitAnswer(entry, x.payload !== null));
      if (refusal) throw refusalError(refusal);
      if (keep) await keep(entry.body);
      return cachedResponse(entry, request, out);
    }

    // 5b. route: the upstream calls, with retries before the first byte and fallbacks across targets.
    const { call, dispatched } = await callTargets(x, deps, plan, prepare, first, {
      ttfbTimeoutMs: requestTimeout(headers, deps.config.ttfbTimeoutMs),
      attemptsOverride: attemptsHeader(headers),
      awaitFirstChunk: request.stream,
      now: Date.now,
      waitUntil,
    });
    const { route, translation } = call;
    if (call.dropped.length > 0) out.set('x-edgeway-dropped', call.dropped.join(', '));
    // A stream that did not arrive whole (cut, abandoned, or our code failed before relaying it) leaves no
    // upstream connection open. A JSON body is read to its end at once; a complete stream needs no abort.
    const reader = dispatched.reader;
    if (reader) {
      x.defer((ending) => {
        if (!ending.answer?.delivery?.completed) dispatched.abort.abort();
      });
    }
    x.upstreamMs = dispatched.upstreamMs;
    const requestId = upstreamRequestId(route, dispatched.response);
    if (requestId) out.set(UPSTREAM_REQUEST_ID, requestId);
    out.set('x-edgeway-target', x.target ?? '');
    out.set('x-edgeway-attempts', String(x.attempts));

    // 6. stream (or the JSON body); 7. the log is written at the exchange's exit.
    const options = {
      request,
      format: spec.format,
      translation,
      dispatched,
      headers: out,
      keepWhole: cachePlan.directives.store && (guarding?.cacheable ?? true),
      guarding,
      capture: x.payload?.maxBytes ?? 0,
      idleTimeoutMs: deps.config.idleTimeoutMs,
      keep,
    };
    if (request.stream && reader) x.ttftMs = x.elapsed();
    const { response, answer } =
      request.stream && reader ? respondStream(options, reader) : await respondJson(options);
    x.answered(answer);
    return response;
  };
}

/** The response header naming a spend-triggered downgrade: the route, then `scope:budget@percent`. */
export const DOWNGRADE_HEADER = 'x-edgeway-downgraded';

/**
 * Stages 5a and 3 ∥ 4 for one model: the route's plan and first call, then the reservation and the
 * cache lookup concurrently. A scope's downgrade comes back as DowngradeRequired, with nothing held.
 */
async function planAndReserve(
  inbound: GatewayCall,
  principal: Principal,
  request: ProxyRequest,
  scope: RequestScope,
) {
  const { deps, exchange: x, env } = inbound;
  const headers = inbound.request.headers;
  const plan = await planCalls(deps, principal, request, Date.now());
  x.route = plan.route;
  const prepare = {
    deps,
    principal,
    request,
    passHeaders: passHeaders(headers),
    keysSecret: env.PROVIDER_KEYS_SECRET,
    responseId: responseIdFor(x.id),
  };
  const first = await prepareFirst(x, plan, prepare);
  x.target = first.call.planned.model;
  x.provider = first.call.route.providerId;
  const cachePlan = await planCache(
    principal,
    request,
    plan.route ? ROUTE_CACHE_SCOPE : first.call.route.providerId,
    headers,
  );
  const models = plan.targets.map((t) => t.model);
  const [reserving, looking] = await Promise.allSettled([
    reserve(x, deps.limiter, principal, request, models, scope),
    lookupCache(x, deps.cache, cachePlan, request),
  ]);
  if (reserving.status === 'rejected') {
    const err: unknown = reserving.reason;
    if (!(err instanceof DowngradeRequired) || scope.downgraded) throw err;
    // The lookup ran beside the reserve: what it claimed for this model's answer is given up.
    if (looking.status === 'fulfilled' && looking.value.entry === null) looking.value.abandon?.();
    return err;
  }
  if (looking.status === 'rejected') throw looking.reason;
  const reserved = reserving.value;
  const lookup = looking.value;
  const out = new Headers(reserved.headers);
  if (plan.route) out.set('x-edgeway-route', plan.route);
  return { plan, prepare, first, cachePlan, lookup, out };
}

/**
 * Keeps a finished answer with the conversation that produced it (`store` on /v1/responses), before the
 * client has it whole; a failure is logged by keepResponse and never fails the answer.
 */
function keeper(call: GatewayCall, principal: Principal, stored: Expanded, request: ProxyRequest) {
  return async (answer: Record<string, unknown>): Promise<void> => {
    await keepResponse(call, principal, stored.conversation, request.body, answer);
  };
}

/** The id a translated answer is known by where the client's format names answers: the request's own, hex. */
function responseIdFor(requestId: string): string {
  return `resp_${requestId.replaceAll('-', '')}`;
}
