/**
 * The pure half of streaming: a stream plan (head events, one event per token,
 * tail events) plus the fault controls become a sequence of steps (send, stall,
 * cut, reset). `sse.ts` plays the steps; tests can read them directly.
 */
import type { Controls } from './controls';

/** A response stream before faults: already-framed SSE events ("data: …\n\n"). */
export interface StreamPlan {
  /** Events before the first token (role chunk, message_start, …). */
  readonly head: readonly string[];
  readonly tokenCount: number;
  /** The event carrying token `index`; rendered lazily so a cut stream renders less. */
  readonly token: (index: number) => string;
  /** Events after the last token (finish, usage, terminator). */
  readonly tail: readonly string[];
  /** A truncated event for `malformed_after`. */
  readonly malformed: string;
  /** A content event split around its text, for `huge_event_bytes` and `unterminated_bytes`. */
  readonly content: { readonly open: string; readonly close: string };
}

export type StreamFaults = Pick<
  Controls,
  | 'cut_after'
  | 'reset_after'
  | 'stall_after'
  | 'stall_ms'
  | 'malformed_after'
  | 'huge_event_bytes'
  | 'unterminated_bytes'
>;

export type Step =
  /** `burst`: written with the event before it, unpaced (a head's or a tail's later events). */
  | { readonly kind: 'send'; readonly event: string; readonly burst?: true }
  | { readonly kind: 'stall'; readonly ms: number }
  | { readonly kind: 'cut' }
  | { readonly kind: 'reset' }
  /** One event about `bytes` long: `open`, filler text, then `close` (null: the event never ends). */
  | { readonly kind: 'blob'; readonly open: string; readonly bytes: number; readonly close: string | null };

/**
 * The steps of a stream. Every fault fires "after N token chunks", i.e. just
 * before token N; an N at or beyond the token count fires after the last token,
 * before the tail. At one point the order is malformed, stall, then cut or reset.
 * A huge or unterminated event comes right after the head (the latter ends the body).
 * The head's and the tail's events each go out as one burst, as real providers
 * write them (Anthropic's message_start, content_block_start and ping arrive
 * together; so do OpenAI's finish chunk, usage chunk and [DONE]): pacing spaces
 * the tokens, not the bookkeeping around them.
 */
export function* schedule(plan: StreamPlan, faults: StreamFaults): Generator<Step, void> {
  yield* burst(plan.head);
  const { open, close } = plan.content;
  if (faults.huge_event_bytes !== undefined)
    yield { kind: 'blob', open, bytes: faults.huge_event_bytes, close };
  if (faults.unterminated_bytes !== undefined) {
    yield { kind: 'blob', open, bytes: faults.unterminated_bytes, close: null };
    return yield { kind: 'cut' };
  }
  for (let i = 0; i <= plan.tokenCount; i++) {
    const end = i === plan.tokenCount;
    const firesHere = (n: number | undefined): boolean => n !== undefined && (n === i || (end && n > i));
    if (firesHere(faults.malformed_after)) yield { kind: 'send', event: plan.malformed };
    if (firesHere(faults.stall_after)) yield { kind: 'stall', ms: faults.stall_ms };
    if (firesHere(faults.cut_after)) return yield { kind: 'cut' };
    if (firesHere(faults.reset_after)) return yield { kind: 'reset' };
    if (!end) yield { kind: 'send', event: plan.token(i) };
  }
  yield* burst(plan.tail);
}

function* burst(events: readonly string[]): Generator<Step, void> {
  for (const [i, event] of events.entries())
    yield i === 0 ? { kind: 'send', event } : { kind: 'send', event, burst: true };
}
