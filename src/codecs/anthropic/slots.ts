/** The text slots of Anthropic Messages requests and of complete messages (src/codecs/slots.ts). */
import { type Json, obj } from '../json';
import { pushSlot, type SlotRole, slot, type TextSlot } from '../slots';

/** Anthropic blocks: text, and tool results (whose content is a string or text blocks again). */
function anthropicBlocks(out: TextSlot[], holder: Json, key: string, role: SlotRole): void {
  const content = holder[key];
  if (typeof content === 'string') {
    pushSlot(out, slot(holder, key, role));
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content) {
    const block = obj(b);
    if (!block) continue;
    if (block.type === 'text') pushSlot(out, slot(block, 'text', role));
    else if (block.type === 'tool_result') anthropicBlocks(out, block, 'content', 'tool');
  }
}

/** Every text slot of a Messages request body, in document order. */
export function anthropicRequestSlots(_endpoint: unknown, body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  anthropicBlocks(out, body, 'system', 'system');
  if (!Array.isArray(body.messages)) return out;
  for (const m of body.messages) {
    const message = obj(m);
    if (!message) continue;
    const role: SlotRole =
      message.role === 'assistant' ? 'assistant' : message.role === 'system' ? 'system' : 'user';
    anthropicBlocks(out, message, 'content', role);
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
