/**
 * The guardrails' rewriter of an OpenAI chat stream (src/guardrails/stream-guard.ts): each choice's
 * content and each tool call's arguments go through their own text transform, and what a transform
 * still holds is flushed into the choice's finish chunk, or into one chunk before the terminator.
 */
import type { TextFlush, TextRewriter, TextThrough } from '../codec';
import { type Json, obj } from '../json';

/** Keys `c<choice>` for content and `c<choice>t<index>` for a tool call's arguments. */
export function openAiTextRewriter(through: TextThrough, flush: TextFlush): TextRewriter {
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
