/**
 * The text slots of Responses requests and answers (src/codecs/slots.ts), in document order.
 * A request's: `instructions` (system), a string `input` (user), and of its input items each
 * message's text (a string, or its `input_text` parts; an earlier answer's `output_text` and
 * `refusal` parts) under its role, the arguments and input of the model's earlier tool calls
 * (assistant), and what tools returned (`function_call_output` and `custom_tool_call_output`: a
 * string or its `input_text` parts), as tool slots, each output one tool result answering its
 * `call_id`. An answer's: each message's `output_text` and
 * `refusal`, and the arguments and input of its tool calls, which the model wrote.
 * Reasoning (its summary and its encrypted content) is the model's own and is not read, as on the
 * other formats.
 */
import type { Endpoint } from '../../core/endpoints';
import { arr, type Json, obj } from '../json';
import {
  pushSlot,
  type SlotRole,
  slot,
  type TextSlot,
  type ToolResultRef,
  type ToolResults,
  toolResults,
} from '../slots';

const ROLES: Record<string, SlotRole> = {
  system: 'system',
  developer: 'system',
  user: 'user',
  assistant: 'assistant',
};

/** Text parts, by type, and the field that holds their text. */
const TEXT_FIELDS: Record<string, string> = {
  input_text: 'text',
  output_text: 'text',
  refusal: 'refusal',
};

/** A `content` (or `output`) that is a string, or parts of which text parts carry text. */
function content(out: TextSlot[], holder: Json, key: string, role: SlotRole, result?: ToolResultRef): void {
  const value = holder[key];
  if (typeof value === 'string') {
    pushSlot(out, slot(holder, key, role, result));
    return;
  }
  for (const raw of arr(value)) {
    const part = obj(raw);
    const field = part && TEXT_FIELDS[String(part.type)];
    if (part && field) pushSlot(out, slot(part, field, role, result));
  }
}

/** One item's texts, input or output: messages, tool calls (what the model wrote) and tool outputs. */
function item(out: TextSlot[], it: Json, results: ToolResults): void {
  const type = it.type ?? 'message';
  if (type === 'message') content(out, it, 'content', ROLES[String(it.role)] ?? 'user');
  else if (type === 'function_call') pushSlot(out, slot(it, 'arguments', 'assistant'));
  else if (type === 'custom_tool_call') pushSlot(out, slot(it, 'input', 'assistant'));
  else if (type === 'function_call_output' || type === 'custom_tool_call_output')
    content(out, it, 'output', 'tool', results(it, 'output', it.call_id));
}

/** Every text slot of a Responses request body, in document order. */
export function responsesRequestSlots(_endpoint: Endpoint, body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  pushSlot(out, slot(body, 'instructions', 'system'));
  if (typeof body.input === 'string') pushSlot(out, slot(body, 'input', 'user'));
  const results = toolResults();
  for (const raw of arr(body.input)) {
    const it = obj(raw);
    if (it) item(out, it, results);
  }
  return out;
}

/** The text slots of a complete response (a JSON body, a cache entry, a stored response). */
export function responsesAnswerSlots(body: Json): TextSlot[] {
  const out: TextSlot[] = [];
  const results = toolResults();
  for (const raw of arr(body.output)) {
    const it = obj(raw);
    if (it) item(out, it, results);
  }
  return out;
}
