/**
 * Rebuilds a complete Anthropic message from a stream's parsed events, so a streamed answer can be
 * cached once and replayed as JSON or as SSE (pure). Text, thinking (with its signature), tool
 * input, stop reason and usage are kept.
 */
import type { Assembler } from '../codec';
import { type Json, obj } from '../json';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

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
