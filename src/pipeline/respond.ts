/**
 * Stage 6, the two ways an upstream answer reaches the client: a relayed
 * stream (usage and completeness known when it ends) or a JSON body (read
 * once, parsed once for usage). Each returns the response and the exchange's
 * Answer; settling the reservation and keeping the answer in the cache happen
 * at the exchange's exit, not here.
 *
 * A JSON body is read whole before it is answered, so it is bounded: at most
 * MAX_JSON_BODY_BYTES, within the idle timeout. A body cut, stalled, oversized
 * or not JSON is the provider's fault (502, or 504 for the stall), thrown as a
 * GatewayError; the exit then settles nothing spent and releases the cache lease.
 */
import { CLIENT_CODECS } from '../codecs/index';
import { obj } from '../codecs/json';
import { type Answer, CLIENT_DISCONNECTED } from '../core/exchange';
import type { ClientFormat } from '../core/endpoints';
import { errorResponse, GatewayError } from '../core/errors';
import type { ProxyRequest } from '../core/request';
import type { Usage } from '../core/usage';
import { estimatePromptTokens, settledUsage } from '../limits/estimate';
import type { StreamFault } from '../sse/observer';
import { type Guarding, refusalError } from './guard';
import { readResponse } from './route/read-upstream';
import type { Dispatched } from './route/upstream';
import { type RelayOutcome, relay } from './stream';
import type { AnswerTranslation } from './route/translate';

export interface RespondOptions {
  readonly request: ProxyRequest;
  /** The client's format: what it is answered in. */
  readonly format: ClientFormat;
  /** How the provider's answer becomes the client's, when their formats differ. */
  readonly translation: AnswerTranslation | null;
  readonly dispatched: Dispatched;
  readonly headers: Headers;
  /** Assemble the whole answer for the cache. */
  readonly keepWhole: boolean;
  /** The guardrails' answer side (src/pipeline/guard.ts); null when the key's policy turns none on. */
  readonly guarding: Guarding | null;
  /** Characters of the response to keep for payload logging; 0 for none. */
  readonly capture: number;
  readonly idleTimeoutMs: number;
  /**
   * Keeps the complete answer (a stored response, src/pipeline/conversation.ts) before the client has
   * it whole: a JSON body before it is returned, a stream before its terminator is relayed. Absent for
   * every request that stores nothing. It must not throw.
   */
  readonly keep?: ((body: Record<string, unknown>) => Promise<void>) | undefined;
}

export interface Responded {
  readonly response: Response;
  /** Resolves when the answer has been delivered (a stream: when it ended, however it ended). */
  readonly answer: Answer | Promise<Answer>;
}

export function respondStream(
  options: RespondOptions,
  reader: ReadableStreamDefaultReader<Uint8Array>,
): Responded {
  const { request, format, dispatched, headers, capture } = options;
  const codec = CLIENT_CODECS[format];
  const keep = options.keep;
  const assembler = options.keepWhole || keep ? codec.assembler() : null;
  const onChunk = assembler ? assembler.push.bind(assembler) : undefined;
  const guarding = options.guarding;
  const rewriter = guarding?.rewriter(format);
  const stripUsage = !request.clientWantsUsage;
  // Nothing rewrites, translates, captures or assembles: most events are relayed from their bytes alone.
  const plain = !options.translation && !rewriter && !onChunk && capture === 0;
  const observer = options.translation
    ? options.translation.streamObserver({ onChunk, capture, rewriter })
    : plain
      ? codec.byteObserver({ stripUsage })
      : codec.observer({ stripUsage, onChunk, capture, rewriter });
  const { body, outcome } = relay({
    reader,
    first: dispatched.first ?? null,
    observer,
    idleTimeoutMs: options.idleTimeoutMs,
    abortUpstream: () => dispatched.abort.abort(),
    scrub: dispatched.scrub,
    gate: guarding ? { judged: guarding.judged, refusal: guarding.refusal } : undefined,
    beforeEnd:
      keep && assembler
        ? async () => {
            const whole = wholeBody(format, assembler.result());
            if (whole) await keep(whole.body);
          }
        : undefined,
  });
  const answer = outcome.then(
    (o): Answer => ({
      usage: deliveredUsage(request, o),
      delivery: o,
      whole: o.completed && assembler && options.keepWhole ? wholeBody(format, assembler.result()) : null,
      lateError: o.error?.code ?? (o.cancelledByClient ? CLIENT_DISCONNECTED : null),
      text: capture > 0 ? observer.captured : null,
    }),
  );
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-cache');
  return {
    response: new Response(body, { status: dispatched.response.status, headers }),
    answer,
  };
}

/**
 * What a stream used, as the limiter charges it and the log records it: the
 * reported usage when it completed with one; otherwise (cut, abandoned, or no
 * usage chunk) the prompt estimate and the delivered characters / 4.
 */
function deliveredUsage(request: ProxyRequest, o: RelayOutcome): Usage | null {
  if (o.completed && o.usage) return o.usage;
  return settledUsage(estimatePromptTokens(request), o.usage, o);
}

/**
 * The largest JSON answer read (32 MiB): an embeddings answer for 2,048 inputs
 * of 1,536 floats is about 40 MB as JSON, well past what a chat answer needs,
 * and holding it (text + parsed) already takes a large share of an isolate.
 */
export const MAX_JSON_BODY_BYTES = 32 * 1024 * 1024;

export async function respondJson(options: RespondOptions): Promise<Responded> {
  const { format, dispatched, headers } = options;
  let text = await readJsonBody(dispatched, options.idleTimeoutMs);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw upstreamFault(502, 'The provider returned a body that is not JSON.', 'bad_upstream_response');
  }
  let usage: Usage | null;
  if (options.translation) {
    const translated = options.translation.json(parsed);
    parsed = translated.body;
    usage = translated.usage;
    text = JSON.stringify(parsed);
  } else {
    usage = CLIENT_CODECS[format].usage(parsed);
  }
  const guarding = options.guarding;
  const body = guarding || options.keep ? obj(parsed) : null;
  if (guarding && body) {
    // The second opinion started before the upstream call; by now it has usually judged.
    await guarding.judged;
    const judged = guarding.answer(format, body);
    if (judged.refusal) return refused(options, usage, text, judged.refusal);
    if (judged.changed) text = JSON.stringify(parsed);
  }
  if (options.keep && body) await options.keep(body);
  const answer: Answer = {
    usage,
    // A 2xx without usage is never free: the limiter charges an estimate from the body's size.
    delivery: { completed: true, deliveredChars: text.length },
    whole: options.keepWhole ? wholeBody(format, parsed) : null,
    lateError: null,
    text: options.capture > 0 ? text : null,
  };
  headers.set('content-type', 'application/json');
  return { response: new Response(text, { status: dispatched.response.status, headers }), answer };
}

/**
 * An answer a guardrail refused: the client gets 400 `guardrail_blocked` in its own error shape instead,
 * while the exchange still records what the provider charged for it (the tokens were spent).
 */
function refused(
  options: RespondOptions,
  usage: Usage | null,
  text: string,
  refusal: StreamFault,
): Responded {
  const error = refusalError(refusal);
  const response = errorResponse(error, CLIENT_CODECS[options.format].errorBody);
  for (const [name, value] of options.headers)
    if (!response.headers.has(name)) response.headers.set(name, value);
  return {
    response,
    answer: {
      usage,
      delivery: { completed: true, deliveredChars: text.length },
      whole: null,
      lateError: refusal.fault,
      text: null,
    },
  };
}

function wholeBody(format: ClientFormat, body: unknown): Answer['whole'] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return { format, body: body as Record<string, unknown> };
}

/** The whole body, or the provider's fault; on any fault the upstream call is aborted. */
async function readJsonBody(dispatched: Dispatched, timeoutMs: number): Promise<string> {
  const read = await readResponse(dispatched.response, {
    maxBytes: MAX_JSON_BODY_BYTES,
    deadlineMs: timeoutMs,
  });
  if (read.kind === 'done') return read.text;
  dispatched.abort.abort();
  if (read.kind === 'timeout')
    throw upstreamFault(
      504,
      `The provider's answer did not arrive whole within ${timeoutMs} ms.`,
      'upstream_body_timeout',
    );
  if (read.kind === 'too_large')
    throw upstreamFault(
      502,
      `The provider's answer is larger than ${MAX_JSON_BODY_BYTES} bytes.`,
      'upstream_response_too_large',
    );
  throw upstreamFault(
    502,
    "The provider's answer was cut off before it was complete.",
    'upstream_interrupted',
  );
}

function upstreamFault(status: number, message: string, code: string): GatewayError {
  return new GatewayError(status, message, { code, source: 'provider' });
}
