/**
 * The texts of a client's request that guardrails read and may rewrite, found
 * in the body as the client sent it (OpenAI chat or embeddings, Anthropic
 * messages) without re-encoding it: each slot names its role and writes a new
 * value back in place, so redaction changes exactly the strings it found and
 * the body the provider gets is the client's own with those strings replaced.
 */
import { type Json, obj } from '../codecs/json';
import type { Endpoint } from '../core/endpoints';

/** Who wrote a text: injection scans what users and tools wrote; PII and secrets scan everything. */
export type SlotRole = 'system' | 'user' | 'assistant' | 'tool';

export interface TextSlot {
  readonly role: SlotRole;
  /** The current value (after any `set`). */
  readonly text: string;
  set(text: string): void;
}

function slot(holder: Json | unknown[], key: string | number, role: SlotRole): TextSlot | null {
  const fields = holder as Record<string | number, unknown>;
  if (typeof fields[key] !== 'string' || fields[key] === '') return null;
  return {
    role,
    get text() {
      return fields[key] as string;
    },
    set(text) {
      fields[key] = text;
    },
  };
}

function push(out: TextSlot[], s: TextSlot | null): void {
  if (s) out.push(s);
}

const ROLES: Record<string, SlotRole> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
};

/** OpenAI content: a string, or parts of which `text` parts carry text. */
function openAiContent(out: TextSlot[], message: Json, role: SlotRole): void {
  if (typeof message.content === 'string') {
    push(out, slot(message, 'content', role));
    return;
  }
  if (!Array.isArray(message.content)) return;
  for (const part of message.content) {
    const p = obj(part);
    if (p && p.type === 'text') push(out, slot(p, 'text', role));
  }
}

function openAiChat(body: Json, out: TextSlot[]): void {
  if (!Array.isArray(body.messages)) return;
  for (const m of body.messages) {
    const message = obj(m);
    if (!message) continue;
    const role = ROLES[String(message.role)] ?? 'user';
    openAiContent(out, message, role);
    // A model's earlier tool calls carry arguments it wrote: secrets there reach the provider too.
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        const fn = obj(obj(call)?.function);
        if (fn) push(out, slot(fn, 'arguments', 'assistant'));
      }
    }
  }
}

/** Anthropic blocks: text, and tool results (whose content is a string or text blocks again). */
function anthropicBlocks(out: TextSlot[], holder: Json, key: string, role: SlotRole): void {
  const content = holder[key];
  if (typeof content === 'string') {
    push(out, slot(holder, key, role));
    return;
  }
  if (!Array.isArray(content)) return;
  for (const b of content) {
    const block = obj(b);
    if (!block) continue;
    if (block.type === 'text') push(out, slot(block, 'text', role));
    else if (block.type === 'tool_result') anthropicBlocks(out, block, 'content', 'tool');
  }
}

function anthropicMessages(body: Json, out: TextSlot[]): void {
  anthropicBlocks(out, body, 'system', 'system');
  if (!Array.isArray(body.messages)) return;
  for (const m of body.messages) {
    const message = obj(m);
    if (!message) continue;
    anthropicBlocks(out, message, 'content', message.role === 'assistant' ? 'assistant' : 'user');
  }
}

function embeddingsInput(body: Json, out: TextSlot[]): void {
  if (typeof body.input === 'string') {
    push(out, slot(body, 'input', 'user'));
    return;
  }
  if (!Array.isArray(body.input)) return;
  for (let i = 0; i < body.input.length; i++) push(out, slot(body.input, i, 'user'));
}

/** Every text slot of a request body, in document order. */
export function requestSlots(endpoint: Endpoint, body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  if (endpoint === 'chat') openAiChat(body, out);
  else if (endpoint === 'messages') anthropicMessages(body, out);
  else embeddingsInput(body, out);
  return out;
}

/** The text slots of a complete answer in the client's format (a JSON body or a cache entry). */
export function answerSlots(format: 'openai' | 'anthropic', body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  if (format === 'anthropic') {
    if (!Array.isArray(body.content)) return out;
    for (const b of body.content) {
      const block = obj(b);
      if (block?.type === 'text') push(out, slot(block, 'text', 'assistant'));
    }
    return out;
  }
  if (!Array.isArray(body.choices)) return out;
  for (const c of body.choices) {
    const message = obj(obj(c)?.message);
    if (!message) continue;
    openAiContent(out, message, 'assistant');
    if (Array.isArray(message.tool_calls)) {
      for (const call of message.tool_calls) {
        const fn = obj(obj(call)?.function);
        if (fn) push(out, slot(fn, 'arguments', 'assistant'));
      }
    }
  }
  return out;
}
