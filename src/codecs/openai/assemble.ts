/**
 * Rebuilds a complete OpenAI chat completion from a stream's parsed chunks, so a streamed answer can
 * be cached once and replayed as JSON or as SSE (pure). Content, refusals, reasoning (its text and
 * its `reasoning_details`), tool calls, finish reasons and usage are kept.
 */
import type { Assembler } from '../codec';
import { type Json, obj } from '../json';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

interface ToolCall {
  id: string;
  type: string;
  name: string;
  arguments: string;
}
interface Choice {
  content: string | null;
  refusal: string | null;
  reasoning: string | null;
  details: unknown[];
  finish: unknown;
  tools: Map<number, ToolCall>;
}

export function openAiAssembler(): Assembler {
  let head: Json | null = null;
  let usage: unknown;
  const choices = new Map<number, Choice>();
  return {
    push(chunk) {
      head ??= chunk;
      if (obj(chunk.usage)) usage = chunk.usage;
      for (const raw of Array.isArray(chunk.choices) ? chunk.choices : []) {
        const c = obj(raw);
        if (!c) continue;
        const index = typeof c.index === 'number' ? c.index : 0;
        const choice: Choice = choices.get(index) ?? {
          content: null,
          refusal: null,
          reasoning: null,
          details: [],
          finish: null,
          tools: new Map(),
        };
        choices.set(index, choice);
        const delta = obj(c.delta) ?? {};
        if (typeof delta.content === 'string') choice.content = (choice.content ?? '') + delta.content;
        if (typeof delta.refusal === 'string') choice.refusal = (choice.refusal ?? '') + delta.refusal;
        if (typeof delta.reasoning_content === 'string')
          choice.reasoning = (choice.reasoning ?? '') + delta.reasoning_content;
        if (Array.isArray(delta.reasoning_details)) choice.details.push(...delta.reasoning_details);
        if (c.finish_reason) choice.finish = c.finish_reason;
        for (const rawCall of Array.isArray(delta.tool_calls) ? delta.tool_calls : []) {
          const call = obj(rawCall);
          if (!call) continue;
          const i = typeof call.index === 'number' ? call.index : 0;
          const fn = obj(call.function) ?? {};
          const tool = choice.tools.get(i) ?? { id: '', type: 'function', name: '', arguments: '' };
          tool.id ||= str(call.id);
          tool.type = str(call.type) || tool.type;
          tool.name ||= str(fn.name);
          tool.arguments += str(fn.arguments);
          choice.tools.set(i, tool);
        }
      }
    },
    result() {
      if (!head) return null;
      const list = [...choices.entries()]
        .sort(([a], [b]) => a - b)
        .map(([index, c]) => {
          const message: Json = { role: 'assistant', content: c.content, refusal: c.refusal };
          if (c.reasoning !== null) message.reasoning_content = c.reasoning;
          if (c.details.length) message.reasoning_details = c.details;
          if (c.tools.size) {
            message.tool_calls = [...c.tools.entries()]
              .sort(([a], [b]) => a - b)
              .map(([, t]) => ({
                id: t.id,
                type: t.type,
                function: { name: t.name, arguments: t.arguments },
              }));
          }
          return { index, message, logprobs: null, finish_reason: c.finish ?? null };
        });
      const out: Json = {
        id: head.id,
        object: 'chat.completion',
        created: head.created,
        model: head.model,
        choices: list,
      };
      if (head.system_fingerprint !== undefined) out.system_fingerprint = head.system_fingerprint;
      if (usage !== undefined) out.usage = usage;
      return out;
    },
  };
}
