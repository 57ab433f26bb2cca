/**
 * Rebuilds the complete JSON response from a stream's parsed events, so a
 * streamed answer can be cached once and replayed as JSON or as SSE (pure).
 * Tool calls, finish reasons and usage are kept.
 */
type Json = Record<string, unknown>;

export interface Assembler {
  push(chunk: Json, event: string | null): void;
  /** The complete response object, or null when the stream never said what it was. */
  result(): Json | null;
}

const obj = (v: unknown): Json | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Json) : null;
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
        const choice = choices.get(index) ?? { content: null, refusal: null, finish: null, tools: new Map() };
        choices.set(index, choice);
        const delta = obj(c.delta) ?? {};
        if (typeof delta.content === 'string') choice.content = (choice.content ?? '') + delta.content;
        if (typeof delta.refusal === 'string') choice.refusal = (choice.refusal ?? '') + delta.refusal;
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

export function anthropicAssembler(): Assembler {
  let message: Json | null = null;
  const blocks = new Map<number, Json>();
  const partialJson = new Map<number, string>();
  return {
    push(chunk, event) {
      const type = event ?? str(chunk.type);
      if (type === 'message_start') message = { ...(obj(chunk.message) ?? {}) };
      else if (type === 'content_block_start')
        blocks.set(Number(chunk.index ?? 0), { ...(obj(chunk.content_block) ?? {}) });
      else if (type === 'content_block_delta') {
        const index = Number(chunk.index ?? 0);
        const block = blocks.get(index);
        const delta = obj(chunk.delta) ?? {};
        if (!block) return;
        if (delta.type === 'text_delta') block.text = str(block.text) + str(delta.text);
        else if (delta.type === 'thinking_delta') block.thinking = str(block.thinking) + str(delta.thinking);
        else if (delta.type === 'signature_delta') block.signature = str(delta.signature);
        else if (delta.type === 'input_json_delta')
          partialJson.set(index, (partialJson.get(index) ?? '') + str(delta.partial_json));
      } else if (type === 'content_block_stop') {
        const index = Number(chunk.index ?? 0);
        const json = partialJson.get(index);
        const block = blocks.get(index);
        if (block && json !== undefined) {
          try {
            block.input = JSON.parse(json || '{}');
          } catch {
            block.input = {};
          }
        }
      } else if (type === 'message_delta' && message) {
        Object.assign(message, obj(chunk.delta) ?? {});
        message.usage = { ...(obj(message.usage) ?? {}), ...(obj(chunk.usage) ?? {}) };
      }
    },
    result() {
      if (!message) return null;
      return { ...message, content: [...blocks.entries()].sort(([a], [b]) => a - b).map(([, b]) => b) };
    },
  };
}
