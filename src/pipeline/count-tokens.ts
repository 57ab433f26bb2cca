/**
 * POST /v1/messages/count_tokens (Anthropic's API): how many input tokens a
 * Messages request would be billed, answered `{input_tokens}`. The same stages
 * as /v1/messages where they apply:
 *
 *   auth (x-api-key accepted) → policy (body, model allow-list, request guardrails) → route → count → log
 *
 * and none where they do not: counting is free, so nothing is reserved, no
 * budget is charged and the log row (endpoint /v1/messages/count_tokens) costs
 * nothing; nothing is cached. The model resolves as on /v1/messages; a named
 * route counts with its first planned target (a count is not an answer worth a
 * fallback: the first target's tokenizer is the one the request would most
 * likely meet). Then, by the target's format:
 * - Anthropic's: the body as sent (thinking, tools, system, cache_control and
 *   all), the model replaced by the provider's id, to `{base}/messages/count_tokens`;
 * - a format with a counting API of its own (Gemini, Bedrock): the body decoded
 *   by the Anthropic client codec and encoded by the format's counting codec
 *   (`UpstreamCodec.countTokens`, src/codecs/<format>/count-tokens.ts);
 * - a format without one (OpenAI, Workers AI): an estimate
 *   (src/limits/estimate.ts), never a billable call upstream.
 * `x-edgeway-token-count` says which: `exact` or `estimate`. Upstream faults
 * are mapped as on /v1/messages (status passed through, in Anthropic's envelope).
 */
import { readJsonBody } from '../api/read-body';
import { CLIENT_CODECS, sameFormat, UPSTREAM_CODECS } from '../codecs/index';
import type { CountTokensCodec } from '../codecs/codec';
import { parseCountTokensRequest } from '../core/count-tokens-request';
import { GatewayError } from '../core/errors';
import type { ProxyRequest } from '../core/request';
import { estimatePromptTokens } from '../limits/estimate';
import { passHeaders } from '../providers/pass-headers';
import type { GatewayCall } from './call';
import { guardStage } from './guard';
import { enforcePolicy } from './policy';
import { admit, clientModel } from './admit';
import { attemptsHeader, requestTimeout } from './request-headers';
import { keyFor } from './route/prepare';
import { readResponse } from './route/read-upstream';
import { type Route, resolveRoute } from './route/resolve';
import { planCalls } from './route/targets';
import { dispatch, UPSTREAM_REQUEST_ID, upstreamRequestId } from './route/upstream';

/** The response header saying whether the count is the provider's (`exact`) or the gateway's (`estimate`). */
export const TOKEN_COUNT_HEADER = 'x-edgeway-token-count';

/** A counting answer is a few bytes; anything past this is not one. */
const MAX_COUNT_BODY_BYTES = 65_536;

/**
 * Top-level Messages fields that only shape the answer and have no canonical form: left out when the
 * body is translated for another format's counting API, where they cannot change the input's count.
 */
const ANSWER_ONLY = ['thinking', 'context_management', 'output_config', 'stream'];

export async function countTokens(inbound: GatewayCall): Promise<Response> {
  const { deps, exchange: x, env } = inbound;
  const headers = inbound.request.headers;

  // auth, then the body, read and parsed once.
  const principal = await admit(inbound, true);
  const body = await readJsonBody(inbound.request, deps.config.maxBodyBytes);
  x.model = clientModel(body);
  const request = parseCountTokensRequest(body);

  // policy: the request's guardrails (a count sends the prompt upstream too), then the allow-list.
  const guarding = guardStage(x, principal, request);
  enforcePolicy(principal, request, Date.now());
  if (guarding?.refused) throw guarding.refused;

  // route: the first planned target.
  const plan = await planCalls(deps, principal, request, Date.now());
  x.route = plan.route;
  const planned = plan.targets[0];
  if (!planned) throw new GatewayError(503, `Route '${plan.route}' has no target to count with.`);
  const route = resolveRoute(
    deps.providers,
    { endpoint: 'messages', model: planned.model, stream: false, passHeaders: passHeaders(headers) },
    await keyFor({ principal, keysSecret: env.PROVIDER_KEYS_SECRET }, planned),
  );
  x.target = planned.model;
  x.provider = route.providerId;

  const out = new Headers();
  if (plan.route) out.set('x-edgeway-route', plan.route);
  out.set('x-edgeway-target', planned.model);
  const counter = UPSTREAM_CODECS[route.target.format].countTokens;
  if (!counter) {
    out.set(TOKEN_COUNT_HEADER, 'estimate');
    return Response.json({ input_tokens: estimatePromptTokens(request) }, { headers: out });
  }

  // count: one upstream call, retried like any call before its answer.
  const ttfbTimeoutMs = requestTimeout(headers, planned.ttfbTimeoutMs ?? deps.config.ttfbTimeoutMs);
  const counting: Route = {
    ...route,
    target: { ...route.target, url: counter.url(route.target.url), stream: false },
  };
  const dispatched = await dispatch(counting, {
    body: countBody(request, route, counter, deps.limitsConfig.defaultMaxTokens),
    maxAttempts: attemptsHeader(headers) ?? planned.attempts ?? plan.attempts,
    ttfbTimeoutMs,
    awaitFirstChunk: false,
    onAttempt(attempt) {
      x.attempts = attempt;
    },
    onOutcome(outcome) {
      const ttfbMs = Math.round(outcome.ttfbMs);
      x.tries.push({ target: planned.model, status: outcome.status, ttfbMs, error: outcome.error });
    },
  });
  x.upstreamMs = dispatched.upstreamMs;
  const requestId = upstreamRequestId(route, dispatched.response);
  if (requestId) out.set(UPSTREAM_REQUEST_ID, requestId);
  const inputTokens = counter.decodeResponse(await readCount(dispatched.response, ttfbTimeoutMs));
  out.set(TOKEN_COUNT_HEADER, 'exact');
  return Response.json({ input_tokens: inputTokens }, { headers: out });
}

/** The counting body: the client's own for an Anthropic-format provider, else translated for the target's format. */
function countBody(
  request: ProxyRequest,
  route: Route,
  counter: CountTokensCodec,
  outputCap: number,
): string {
  if (sameFormat(route.target.format, 'anthropic')) {
    return JSON.stringify({ ...request.body, model: route.upstreamModel });
  }
  const kept = Object.fromEntries(Object.entries(request.body).filter(([k]) => !ANSWER_ONLY.includes(k)));
  const canonical = CLIENT_CODECS.anthropic.decodeRequest(kept);
  const context = {
    model: route.upstreamModel,
    providerId: route.providerId,
    outputCap,
    enforceCap: false,
    dropped: [],
  };
  return JSON.stringify(counter.encodeRequest(canonical, context));
}

/** The counting answer as parsed JSON, or the provider's fault (502/504) when it did not arrive whole. */
async function readCount(response: Response, deadlineMs: number): Promise<unknown> {
  const read = await readResponse(response, { maxBytes: MAX_COUNT_BODY_BYTES, deadlineMs });
  if (read.kind === 'timeout') {
    throw fault(
      504,
      `The provider's answer did not arrive whole within ${deadlineMs} ms.`,
      'upstream_body_timeout',
    );
  }
  if (read.kind !== 'done') {
    throw fault(502, "The provider's token count was cut off or too large.", 'upstream_interrupted');
  }
  try {
    return JSON.parse(read.text);
  } catch {
    throw fault(502, 'The provider returned a token count that is not JSON.', 'bad_upstream_response');
  }
}

function fault(status: number, message: string, code: string): GatewayError {
  return new GatewayError(status, message, { code, source: 'provider' });
}
