/**
 * What the bench sends where. A target is a base URL, the bearer key and model
 * id it needs, and the pid whose CPU and memory the OS charges for it. Every
 * target gets the same chat request; only the model id differs (the gateway
 * routes `mock/<id>` to the mock's `<id>`). The mock's latency and pacing
 * travel in the body's `mock` field, which the gateway passes through.
 * Streams ask for the usage chunk: the gateway always asks the upstream for it
 * and drops it when the client did not, which would leave one double gap per
 * stream (finish → dropped usage → [DONE]) that only Edgeway shows.
 */

export const PROMPT = 'Benchmark request: describe a gateway in a few words.';

/**
 * `direct` and `floor` talk to the mock's own model ids; Edgeway to `mock/…`.
 * `controls: false`: no mock controls at all (a named route whose targets carry their own).
 * `controlsInModel`: the mock's controls travel in the model id (`model;tokens=8`)
 * instead of the body, for a target the gateway translates (a translated body
 * carries only what the provider's format has).
 */
export function target(
  name,
  { url, key, model, pid, label = name, controlsInModel = false, controls = true },
) {
  return { name, label, url, key, model, pid, controlsInModel, controls };
}

/** A chat completion body; `content` varies the prompt, `extra` adds fields (e.g. temperature). */
export function chatBody(t, { latencyMs, tokens, paceMs = 0, stream = false, content = PROMPT, extra = {} }) {
  const controls = { latency_ms: latencyMs, tokens, pace_ms: paceMs };
  const inModel = Object.entries(controls)
    .map(([k, v]) => `;${k}=${v}`)
    .join('');
  return JSON.stringify({
    model: t.controls && t.controlsInModel ? `${t.model}${inModel}` : t.model,
    messages: [{ role: 'user', content }],
    ...(stream ? { stream: true, stream_options: { include_usage: true } } : {}),
    ...extra,
    ...(!t.controls ? {} : t.controlsInModel ? { max_tokens: Math.max(1, tokens) } : { mock: controls }),
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

/** A load-generator job against the target's chat endpoint. */
export function chatJob(t, body, fields) {
  return {
    url: `${t.url}/v1/chat/completions`,
    headers: { authorization: `Bearer ${t.key}`, 'content-type': 'application/json' },
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
