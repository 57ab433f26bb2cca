/** The text slots of Anthropic Messages requests and of complete messages (src/codecs/slots.ts). */
import { type Json, obj } from '../json';
import {
  pushSlot,
  type SlotRole,
  slot,
  type TextSlot,
  type ToolResultRef,
  type ToolResults,
  toolResults,
} from '../slots';

/** Anthropic content: a string, or blocks of which text blocks carry text, and tool results (their content again). */
function anthropicBlocks(
  out: TextSlot[],
  holder: Json,
  key: string,
  role: SlotRole,
  results: ToolResults,
  result?: ToolResultRef,
): void {
  const content = holder[key];
  if (typeof content === 'string') {
    pushSlot(out, slot(holder, key, role, result));
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content) {
    const block = obj(b);
    if (!block) continue;
    if (block.type === 'text') pushSlot(out, slot(block, 'text', role, result));
    // One tool result: its content (a string or text blocks) shares one ref, answering `tool_use_id`
    // (a tool_result nested in another, which the API refuses, stays part of the outer one).
    else if (block.type === 'tool_result')
      anthropicBlocks(
        out,
        block,
        'content',
        'tool',
        results,
        result ?? results(block, 'content', block.tool_use_id),
      );
  }
}

/** Every text slot of a Messages request body, in document order. */
export function anthropicRequestSlots(_endpoint: unknown, body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  const results = toolResults();
  anthropicBlocks(out, body, 'system', 'system', results);
  if (!Array.isArray(body.messages)) return out;
  for (const m of body.messages) {
    const message = obj(m);
    if (!message) continue;
    const role: SlotRole =
      message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user';
    anthropicBlocks(out, message, 'content', role, results);
  }
  return out;
}

/** The text slots of a complete message (a JSON body or a cache entry). */
export function anthropicAnswerSlots(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  if (!Array.isArray(body.content)) return out;
  for (const b of body.content) {
    const block = obj(b);
    if (block?.type === 'text') pushSlot(out, slot(block, 'text', 'assistant'));
  }
  return out;
}
