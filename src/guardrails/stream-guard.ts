/**
 * The response side of the guardrails for a stream, as an event rewriter the
 * format's observer applies to each parsed event before it is relayed (only
 * when the policy guards answers; other streams never reach this file). Each
 * text of the answer (an OpenAI choice's content or a tool call's arguments,
 * an Anthropic block's text or JSON) has its own transform: deltas go in,
 * what is safe to show comes out, and what could still be the start of a value
 * is held back (bounded) until the text's end — the choice's finish_reason,
 * the block's content_block_stop, or the terminator — where it is flushed into
 * that event. A `block` ends the stream with an error frame before any part
 * of the value is relayed.
 */
import { type Json, obj } from '../codecs/json';
import type { ClientFormat } from '../core/endpoints';
import type { EventRewriter, RewrittenEvent } from '../sse/observer';
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
  const rewriter =
    format === 'anthropic' ? anthropicRewriter(through, flush) : openAiRewriter(through, flush);
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

type Through = (key: string, text: string) => string;
type Flush = (key: string) => string;

interface FormatRewriter {
  rewrite(data: Json, event: string | null): RewrittenEvent[];
  finish(open: string[]): RewrittenEvent[];
}

/** Keys `c<choice>` for content and `c<choice>t<index>` for a tool call's arguments. */
function openAiRewriter(through: Through, flush: Flush): FormatRewriter {
  let template: Json = {};
  const openTools = new Map<number, Set<number>>();
  return {
    rewrite(data) {
      template = { id: data.id, object: data.object, created: data.created, model: data.model };
      const choices = Array.isArray(data.choices) ? data.choices : [];
      for (const c of choices) {
        const choice = obj(c);
        const delta = obj(choice?.delta);
        if (!choice || !delta) continue;
        const i = Number(choice.index ?? 0);
        if (typeof delta.content === 'string') delta.content = through(`c${i}`, delta.content);
        const calls = Array.isArray(delta.tool_calls) ? delta.tool_calls : [];
        for (const call of calls) {
          const fn = obj(obj(call)?.function);
          const index = Number(obj(call)?.index ?? 0);
          if (!fn || typeof fn.arguments !== 'string') continue;
          fn.arguments = through(`c${i}t${index}`, fn.arguments);
          openTools.set(i, (openTools.get(i) ?? new Set()).add(index));
        }
        if (choice.finish_reason != null) closeChoice(delta, i);
      }
      return [{ event: null, data }];
    },
    finish(open) {
      if (open.length === 0) return [];
      const choices = [...new Set(open.map((k) => Number(k.slice(1).split('t')[0])))].map((i) => {
        const delta: Json = {};
        closeChoice(delta, i);
        return { index: i, delta, finish_reason: null };
      });
      return [{ event: null, data: { ...template, choices } }];
    },
  };

  function closeChoice(delta: Json, i: number): void {
    const rest = flush(`c${i}`);
    if (rest) delta.content = (typeof delta.content === 'string' ? delta.content : '') + rest;
    for (const index of openTools.get(i) ?? []) {
      const args = flush(`c${i}t${index}`);
      if (!args) continue;
      const calls = Array.isArray(delta.tool_calls) ? (delta.tool_calls as Json[]) : [];
      calls.push({ index, function: { arguments: args } });
      delta.tool_calls = calls;
    }
    openTools.delete(i);
  }
}

/** Keys `b<index>` for a content block's text or partial JSON. */
function anthropicRewriter(through: Through, flush: Flush): FormatRewriter {
  const kinds = new Map<number, 'text_delta' | 'input_json_delta'>();
  const closing = (index: number): RewrittenEvent[] => {
    const rest = flush(`b${index}`);
    const kind = kinds.get(index);
    kinds.delete(index);
    if (!rest || !kind) return [];
    const delta = kind === 'text_delta' ? { type: kind, text: rest } : { type: kind, partial_json: rest };
    return [{ event: 'content_block_delta', data: { type: 'content_block_delta', index, delta } }];
  };
  return {
    rewrite(data, event) {
      const type = event ?? String(data.type ?? '');
      const index = Number(data.index ?? 0);
      if (type === 'content_block_delta') {
        const delta = obj(data.delta);
        if (delta?.type === 'text_delta' && typeof delta.text === 'string') {
          kinds.set(index, 'text_delta');
          delta.text = through(`b${index}`, delta.text);
        } else if (delta?.type === 'input_json_delta' && typeof delta.partial_json === 'string') {
          kinds.set(index, 'input_json_delta');
          delta.partial_json = through(`b${index}`, delta.partial_json);
        }
      } else if (type === 'content_block_stop') {
        return [...closing(index), { event, data }];
      }
      return [{ event, data }];
    },
    finish(open) {
      return open.flatMap((key) => closing(Number(key.slice(1))));
    },
  };
}
