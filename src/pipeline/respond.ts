/**
 * Stage 6, the two ways an upstream answer reaches the client: a relayed
 * stream (usage and completeness known when it ends) or a JSON body (read
 * once, parsed once for usage). Each returns the response and the exchange's
 * Answer; settling the reservation and keeping the answer in the cache happen
 * at the exchange's exit, not here.
 */
import { anthropicAssembler, openAiAssembler } from '../cache/assemble';
import type { Answer } from '../core/exchange';
import type { WireFormat } from '../core/endpoints';
import { GatewayError } from '../core/errors';
import type { ProxyRequest } from '../core/request';
import { usageFromJson } from '../core/usage';
import { anthropicObserver, openAiObserver } from '../sse/observer';
import type { Dispatched } from './route';
import { relay } from './stream';

export interface RespondOptions {
  readonly request: ProxyRequest;
  readonly format: WireFormat;
  readonly dispatched: Dispatched;
  readonly headers: Headers;
  /** Assemble the whole answer for the cache. */
  readonly keepWhole: boolean;
  /** Characters of the response to keep for payload logging; 0 for none. */
  readonly capture: number;
  readonly idleTimeoutMs: number;
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
  const assembler = options.keepWhole
    ? format === 'anthropic'
      ? anthropicAssembler()
      : openAiAssembler()
    : null;
  const onChunk = assembler ? assembler.push.bind(assembler) : undefined;
  const observer =
    format === 'anthropic'
      ? anthropicObserver({ onChunk, capture })
      : openAiObserver({ stripUsage: !request.clientWantsUsage, onChunk, capture });
  const { body, outcome } = relay({
    reader,
    first: dispatched.first ?? null,
    observer,
    idleTimeoutMs: options.idleTimeoutMs,
    abortUpstream: () => dispatched.abort.abort(),
  });
  const answer = outcome.then(
    (o): Answer => ({
      usage: o.usage,
      delivery: o,
      whole: o.completed && assembler ? wholeBody(format, assembler.result()) : null,
      lateError: o.error?.code ?? (o.cancelledByClient ? 'client_disconnected' : null),
      text: capture > 0 ? observer.captured : null,
    }),
  );
  headers.set('content-type', 'text/event-stream; charset=utf-8');
  headers.set('cache-control', 'no-cache');
  return { response: new Response(body, { status: dispatched.response.status, headers }), answer };
}

export async function respondJson(options: RespondOptions): Promise<Responded> {
  const { format, dispatched, headers } = options;
  const text = await dispatched.response.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new GatewayError(502, 'The provider returned a body that is not JSON.', {
      code: 'bad_upstream_response',
      source: 'provider',
    });
  }
  const answer: Answer = {
    usage: usageFromJson(format, parsed),
    // A 2xx without usage is never free: the limiter charges an estimate from the body's size.
    delivery: { completed: true, deliveredChars: text.length },
    whole: options.keepWhole ? wholeBody(format, parsed) : null,
    lateError: null,
    text: options.capture > 0 ? text : null,
  };
  headers.set('content-type', 'application/json');
  return { response: new Response(text, { status: dispatched.response.status, headers }), answer };
}

function wholeBody(format: WireFormat, body: unknown): Answer['whole'] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  return { format, body: body as Record<string, unknown> };
}
