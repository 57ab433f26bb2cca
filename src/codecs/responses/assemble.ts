/**
 * The complete Responses answer from a stream's parsed events, for the cache and the gateway's store
 * (pure): the response its terminal event carries (`response.completed`, `incomplete` or `failed`),
 * which already holds the whole output and usage. Should that response come without its output, the
 * items the stream finished (`response.output_item.done`) are put in, in their output order.
 */
import type { Assembler } from '../codec';
import { type Json, num, obj } from '../json';
import { eventType, isTerminal } from './relay-events';

export function responsesAssembler(): Assembler {
  let final: Json | null = null;
  const items = new Map<number, unknown>();
  return {
    push(chunk, event) {
      const type = eventType(chunk, event);
      if (type === 'response.output_item.done' && chunk.item !== undefined)
        items.set(num(chunk.output_index) ?? items.size, chunk.item);
      else if (isTerminal(type)) final = obj(chunk.response);
    },
    result() {
      if (!final) return null;
      const output = Array.isArray(final.output) ? final.output : [];
      if (output.length > 0 || items.size === 0) return final;
      return { ...final, output: [...items.entries()].sort(([a], [b]) => a - b).map(([, item]) => item) };
    },
  };
}
