/** The text slots of OpenAI chat and embeddings requests and of chat completions (src/codecs/slots.ts). */
import type { Endpoint } from '../../core/endpoints';
import { type Json, obj } from '../json';
import { pushSlot, type SlotRole, slot, type TextSlot, type ToolResultRef, toolResults } from '../slots';

const ROLES: Record<string, SlotRole> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

/** OpenAI content: a string, or parts of which `text` parts carry text. */
function openAiContent(out: TextSlot[], message: Json, role: SlotRole, result?: ToolResultRef): void {
  if (typeof message.content === 'string') {
    pushSlot(out, slot(message, 'content', role, result));
    return;
  }
  if (!Array.isArray(message.content)) return;
  for (const part of message.content) {
    const p = obj(part);
    if (p && p.type === 'text') pushSlot(out, slot(p, 'text', role, result));
  }
}

function openAiChat(body: Json, out: TextSlot[]): void {
  if (!Array.isArray(body.messages)) return;
  const result = toolResults();
  for (const m of body.messages) {
    const message = obj(m);
    if (!message) continue;
    const role = ROLES[String(message.role)] ?? 'user';
    // A tool (or legacy function) message is one tool result, answering `tool_call_id`.
    const ref = role === 'tool' ? result(message, 'content', message.tool_call_id) : undefined;
    openAiContent(out, message, role, ref);
    // A model's earlier tool calls carry arguments it wrote: secrets there reach the provider too.
    toolArguments(out, message);
  }
}

/** The arguments of a message's tool calls, which the model wrote. */
function toolArguments(out: TextSlot[], message: Json): void {
  if (!Array.isArray(message.tool_calls)) return;
  for (const call of message.tool_calls) {
    const fn = obj(obj(call)?.function);
    if (fn) pushSlot(out, slot(fn, 'arguments', 'assistant'));
  }
}

function embeddingsInput(body: Json, out: TextSlot[]): void {
  if (typeof body.input === 'string') {
    pushSlot(out, slot(body, 'input', 'user'));
    return;
  }
  if (!Array.isArray(body.input)) return;
  for (let i = 0; i < body.input.length; i++) pushSlot(out, slot(body.input, i, 'user'));
}

/** Every text slot of a chat or embeddings request body, in document order. */
export function openAiRequestSlots(endpoint: Endpoint, body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  if (endpoint === 'embeddings') embeddingsInput(body, out);
  else openAiChat(body, out);
  return out;
}

/** The text slots of a complete chat completion (a JSON body or a cache entry). */
export function openAiAnswerSlots(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  if (!Array.isArray(body.choices)) return out;
  for (const c of body.choices) {
    const message = obj(obj(c)?.message);
    if (!message) continue;
    openAiContent(out, message, 'assistant');
    toolArguments(out, message);
  }
  return out;
}
