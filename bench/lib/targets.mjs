/**
 * What the bench sends where. A target is a base URL, the bearer key and model
 * id it needs, the endpoint it speaks, and the pid whose CPU and memory the OS
 * charges for it. Every target of an endpoint gets the same request; only the
 * model id differs (the gateway routes `mock/<id>` to the mock's `<id>`). The
 * mock's latency and pacing travel in the body's `mock` field, which the
 * gateway passes through.
 * Chat streams ask for the usage chunk: the gateway always asks the upstream for it
 * and drops it when the client did not, which would leave one double gap per
 * stream (finish → dropped usage → [DONE]) that only Edgeway shows.
 * Responses API streams carry usage in their last event and have no [DONE]:
 * they end with `response.completed`, the load generator's done marker for them.
 */

export const PROMPT = 'Benchmark request: describe a gateway in a few words.';

/**
 * The endpoints a target may speak: the path a request goes to, and the marker the
 * load generator takes as a stream's end (searched across the whole stream).
 */
export const ENDPOINTS = {
  chat: { path: '/v1/chat/completions', doneMarker: 'data: [DONE]' },
  responses: { path: '/v1/responses', doneMarker: 'event: response.completed' },
};

/**
 * `direct` and `floor` talk to the mock's own model ids; Edgeway to `mock/…`.
 * `controls: false`: no mock controls at all (a named route whose targets carry their own).
 * `controlsInModel`: the mock's controls travel in the model id (`model;tokens=8`)
 * instead of the body, for a target the gateway translates (a translated body
 * carries only what the provider's format has).
 * `endpoint`: 'chat' (Chat Completions, the default) or 'responses' (the Responses API).
 * `rotateHeaders`: headers whose value changes per request, `{ name: [values] }` (request i of a job
 * sends values[i % n]; e.g. `x-edgeway-user` over many end users).
 */
export function target(
  name,
  {
    url,
    key,
    model,
    pid,
    label = name,
    controlsInModel = false,
    controls = true,
    endpoint = 'chat',
    rotateHeaders = null,
  },
) {
  if (!ENDPOINTS[endpoint]) throw new Error(`target ${name}: unknown endpoint ${endpoint}`);
  return { name, label, url, key, model, pid, controlsInModel, controls, endpoint, rotateHeaders };
}

/**
 * The target with each rotated header's values started `by` further on (wrapping), so that
 * successive jobs, whose request indexes each start at 0, go on through the list instead of
 * repeating its start. A target without rotated headers is returned as it is.
 */
export function rotatedBy(t, by) {
  if (!t.rotateHeaders) return t;
  const turn = (values) => {
    const k = values.length ? by % values.length : 0;
    return [...values.slice(k), ...values.slice(0, k)];
  };
  return {
    ...t,
    rotateHeaders: Object.fromEntries(Object.entries(t.rotateHeaders).map(([h, v]) => [h, turn(v)])),
  };
}

/** The URL a target's requests go to. */
export function endpointUrl(t) {
  return `${t.url}${ENDPOINTS[t.endpoint ?? 'chat'].path}`;
}

/**
 * The request body for the target's endpoint: a chat completion, or a Responses API request
 * (`input` the same prompt, `store: false`: nothing kept, as a stateless client asks).
 * `content` varies the prompt, `extra` adds fields (e.g. temperature). A target with its controls
 * in the model id also sends an output cap no lower than the tokens asked for (`max_tokens`, or
 * `max_output_tokens`, whose floor is 16), as the translated chat target always has.
 */
export function chatBody(t, { latencyMs, tokens, paceMs = 0, stream = false, content = PROMPT, extra = {} }) {
  const controls = { latency_ms: latencyMs, tokens, pace_ms: paceMs };
  const inModel = Object.entries(controls)
    .map(([k, v]) => `;${k}=${v}`)
    .join('');
  const model = t.controls && t.controlsInModel ? `${t.model}${inModel}` : t.model;
  const responses = t.endpoint === 'responses';
  const cap = responses ? { max_output_tokens: Math.max(16, tokens) } : { max_tokens: Math.max(1, tokens) };
  return JSON.stringify({
    model,
    ...(responses ? { input: content, store: false } : { messages: [{ role: 'user', content }] }),
    ...(stream
      ? responses
        ? { stream: true }
        : { stream: true, stream_options: { include_usage: true } }
      : {}),
    ...extra,
    ...(!t.controls ? {} : t.controlsInModel ? cap : { mock: controls }),
  });
}

/** What the guardrails scenario adds to the prompt: one value for the PII guardrail to redact. */
export const GUARDED_SUFFIX = 'Reply to jane.doe@example.com when done.';

/** Every local guardrail on both ways (the classifier needs Workers AI, absent here); a few deny-list entries. */
export const GUARDED_POLICY = {
  injection: { request: 'block' },
  pii: { request: 'redact', response: 'redact' },
  secrets: { request: 'redact', response: 'redact' },
  denylist: { request: 'redact', response: 'redact' },
  deny: {
    terms: ['project bluebird', 'codename orion', 'acme internal', 'zeta-9', 'redwood merger'],
    patterns: ['inv-\\d{6}', 'emp[0-9]{5}'],
  },
};

/** A load-generator job against the target's endpoint (with its stream's done marker). */
export function chatJob(t, body, fields) {
  const endpoint = ENDPOINTS[t.endpoint ?? 'chat'];
  return {
    url: endpointUrl(t),
    ...(endpoint.doneMarker === ENDPOINTS.chat.doneMarker ? {} : { done_marker: endpoint.doneMarker }),
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
    ...(t.rotateHeaders ? { rotate_headers: t.rotateHeaders } : {}),
    ...(Array.isArray(body) ? { bodies: body } : { body }),
    timeout_ms: 10_000,
    count_headers: [
      'x-edgeway-cache',
      'x-ratelimit-limit-requests',
      'x-edgeway-attempts',
      'x-edgeway-guardrails',
    ],
    numeric_headers: ['x-edgeway-overhead-ms'],
    ...fields,
  };
}

/** Latencies (ms) of the successful requests of a closed or open job result. */
export function okLatenciesMs(result) {
  const out = [];
  const { lat_us: lat, status } = result.samples;
  for (let i = 0; i < lat.length; i++) if (status[i] >= 200 && status[i] < 300) out.push(lat[i] / 1000);
  return out;
}

/** Count of non-2xx or failed requests. */
export function errorCount(result) {
  return result.samples.status.filter((s) => s < 200 || s >= 300).length;
}
