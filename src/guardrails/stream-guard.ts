/**
 * The response side of the guardrails for a stream, as an event rewriter the
 * format's observer applies to each parsed event before it is relayed (only
 * when the policy guards answers; other streams never reach this file). Each
 * text of the answer (an OpenAI choice's content or a tool call's arguments,
 * an Anthropic block's text or JSON, as the client codec's text rewriter finds
 * them: src/codecs/<format>/text-rewriter.ts) has its own transform: deltas go in,
 * what is safe to show comes out, and what could still be the start of a value
 * is held back (bounded) until the text's end — the choice's finish_reason,
 * the block's content_block_stop, or the terminator — where it is flushed into
 * that event. A `block` ends the stream with an error frame before any part
 * of the value is relayed.
 */
import { CLIENT_CODECS } from '../codecs/index';
import type { ClientFormat } from '../core/endpoints';
import type { EventRewriter } from '../sse/observer';
import { blockedMessage, GUARDRAIL_BLOCKED } from './blocked';
import type { AnswerGuardState, TextTransform } from './response-text';

export function streamGuard(
  format: ClientFormat,
  make: () => TextTransform,
  state: AnswerGuardState,
): EventRewriter {
  const texts = new Map<string, TextTransform>();
  const through = (key: string, text: string): string => {
    let t = texts.get(key);
    if (!t) {
      t = make();
      texts.set(key, t);
    }
    return t.push(text);
  };
  const flush = (key: string): string => {
    const t = texts.get(key);
    if (!t) return '';
    texts.delete(key);
    return t.flush();
  };
  const fault = () => {
    const guardrail = state.blocked!;
    return { fault: GUARDRAIL_BLOCKED, message: blockedMessage(guardrail, 'response') };
  };
  const rewriter = CLIENT_CODECS[format].textRewriter(through, flush);
  return {
    rewrite(data, event) {
      const out = rewriter.rewrite(data, event);
      return state.blocked ? fault() : out;
    },
    finish() {
      const out = rewriter.finish([...texts.keys()]);
      return state.blocked ? fault() : out;
    },
  };
}
