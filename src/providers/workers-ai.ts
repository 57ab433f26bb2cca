/**
 * Workers AI through the `AI` binding: `env.AI.run(model, inputs, {signal})`,
 * no HTTP hop. `send` turns the binding's ways of answering into the HTTP
 * response the pipeline reads: an object → JSON, a stream → its SSE bytes
 * (already SSE), a throw → Cloudflare's error envelope with a status from the
 * error's code. The binding names no id, model or time, so each answer is
 * stamped with them (the `edgeway` key, or a first `event: edgeway`, see
 * src/codecs/workers-ai/response.ts). Without the binding (local dev) the
 * provider is listed but unconfigured.
 */
import { STAMP, type Stamp } from '../codecs/workers-ai/response';
import { WORKERS_AI_MODELS, workersAiModel } from '../codecs/workers-ai/models';
import type { Bindings } from '../env';
import { scrubSecrets } from './scrub';
import type { PrepareInput, ProviderAdapter, ProviderEntry, UpstreamTarget } from './types';

/** The slice of the `Ai` binding this adapter uses. */
export interface AiRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

/**
 * The binding throws plain errors whose message starts with Workers AI's
 * code ("5007: No such model …"); the status each deserves, after
 * developers.cloudflare.com/workers-ai/platform/errors. Anything else is 502.
 */
const STATUS_BY_CODE: Readonly<Record<number, number>> = {
  3003: 400, // incomplete request
  3042: 400, // invalid model id
  5004: 400, // invalid data
  5006: 400, // input does not match the model's schema
  5007: 400, // no such model
  5021: 400, // prompt and max_tokens exceed the context window
  3006: 413, // request too large
  3023: 403, // account blocked
  3041: 403, // private model
  5016: 403, // model agreement not accepted
  5018: 403, // private model
  3036: 429, // daily free allocation used up
  3040: 429, // out of capacity
  3007: 504, // timeout
};

const encoder = new TextEncoder();

export function workersAiAdapter(ai: AiRunner): ProviderAdapter {
  return {
    id: 'workers-ai',
    requestIdHeader: null,
    prepare(input: PrepareInput): UpstreamTarget | null {
      const known = workersAiModel(input.model);
      const wants = input.endpoint === 'embeddings' ? 'embeddings' : 'chat';
      if (known && known.kind !== wants) return null;
      return {
        endpoint: input.endpoint,
        model: input.model,
        stream: input.stream && wants === 'chat',
        url: `workers-ai:binding/run/${input.model}`,
        headers: new Headers(),
        format: 'workers-ai',
      };
    },
    async send(target, body, signal) {
      const inputs = JSON.parse(body) as Record<string, unknown>;
      const stamp: Stamp = {
        id: `wai-${crypto.randomUUID().replaceAll('-', '')}`,
        model: target.model,
        created: Math.floor(Date.now() / 1000),
        max_tokens: typeof inputs.max_tokens === 'number' ? inputs.max_tokens : null,
      };
      let output: unknown;
      try {
        output = await ai.run(target.model, inputs, { signal });
      } catch (err) {
        if (signal.aborted) throw err;
        return bindingFailure(err);
      }
      if (!target.stream) return json({ ...asObject(output), [STAMP]: stamp });
      const stampFrame = encoder.encode(`event: ${STAMP}\ndata: ${JSON.stringify(stamp)}\n\n`);
      // A model that answers a stream request whole (some do) is sent as one event.
      const source =
        output instanceof ReadableStream
          ? (output as ReadableStream<Uint8Array>)
          : new Blob([`data: ${JSON.stringify(asObject(output))}\n\ndata: [DONE]\n\n`]).stream();
      return new Response(stamped(stampFrame, source, signal), {
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
      });
    },
    // The binding holds no key of ours; credential-shaped text is still removed.
    scrub: (message, maxChars) => scrubSecrets(message, [], maxChars),
  };
}

function asObject(output: unknown): Record<string, unknown> {
  return typeof output === 'object' && output !== null && !Array.isArray(output)
    ? (output as Record<string, unknown>)
    : { response: output };
}

function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}

/**
 * The binding's SSE bytes with the stamp in front, read one chunk per pull
 * (never buffered). The stamp goes out with the first chunk, so the first byte
 * still means the model has begun; an abort cancels the binding's stream.
 */
function stamped(
  stamp: Uint8Array,
  source: ReadableStream<Uint8Array>,
  signal: AbortSignal,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  const stop = () => void reader.cancel(signal.reason).catch(() => undefined);
  signal.addEventListener('abort', stop, { once: true });
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { done, value } = await reader.read();
        // An abort ends the stream as failed, never as a clean (and so seemingly complete) close.
        if (signal.aborted) throw signal.reason;
        if (first) {
          first = false;
          controller.enqueue(done ? stamp : concat(stamp, value));
        } else if (!done) controller.enqueue(value);
        if (done) {
          signal.removeEventListener('abort', stop);
          controller.close();
        }
      } catch (err) {
        signal.removeEventListener('abort', stop);
        controller.error(err);
      }
    },
    cancel(reason) {
      signal.removeEventListener('abort', stop);
      return reader.cancel(reason);
    },
  });
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.byteLength + b.byteLength);
  out.set(a);
  out.set(b, a.byteLength);
  return out;
}

/** A binding throw as Cloudflare's API would answer it: `{success: false, errors: [{code, message}]}`. */
export function bindingFailure(err: unknown): Response {
  const text = err instanceof Error ? err.message : String(err);
  const match = /(?:^|\s)(\d{4}):\s*(.*)$/s.exec(text);
  const code = match ? Number(match[1]) : null;
  const message = (match?.[2] ?? text).trim() || 'Workers AI failed without a message';
  const status = (code !== null ? STATUS_BY_CODE[code] : undefined) ?? 502;
  const error = code !== null ? { code, message } : { message };
  return json({ success: false, errors: [error], messages: [], result: null }, status);
}

/** Usable wherever the `AI` binding is bound; keyless, since the binding is the credential. */
export function workersAiEntry(env: Bindings): ProviderEntry {
  const ai: AiRunner | undefined = env.AI;
  return {
    id: 'workers-ai',
    deploymentKey: null,
    keyless: ai !== undefined,
    acceptsTenantKeys: false,
    models: Object.keys(WORKERS_AI_MODELS),
    build: () => workersAiAdapter(ai ?? ABSENT),
  };
}

/** Stands in when the binding is absent, should an adapter ever be built then. */
const ABSENT: AiRunner = {
  run: () => Promise.reject(new Error('The AI binding is not bound on this gateway.')),
};
