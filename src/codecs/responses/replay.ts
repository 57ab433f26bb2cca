/**
 * A complete Responses answer (cached, or kept by the gateway) replayed as a well-formed Responses
 * stream (pure), as OpenAI streams one: `response.created` and `response.in_progress` with the
 * response still in progress and no output; for each output item, `response.output_item.added`, its
 * parts each added, written in one delta and done (message text and refusals, reasoning summaries
 * and reasoning text, function-call arguments, custom tool input), then `response.output_item.done`
 * with the whole item; then the terminal event its status names (`response.completed`,
 * `response.incomplete` or `response.failed`) with the whole response. Every event has its
 * `event:` line and its `sequence_number`, counted from 0. Usage is always in the terminal response,
 * so `includeUsage` changes nothing.
 */
import { arr, type Json, obj, str } from '../json';

const TERMINAL_OF_STATUS: Record<string, string> = {
  incomplete: 'response.incomplete',
  failed: 'response.failed',
};

export function replayResponses(body: Json, _includeUsage = true): string {
  let sequence = 0;
  let out = '';
  const emit = (type: string, fields: Json) => {
    out += `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
  };
  const progress: Json = { ...body, status: 'in_progress', output: [], usage: null };
  for (const field of ['error', 'incomplete_details', 'completed_at'])
    if (field in body) progress[field] = null;
  emit('response.created', { response: progress });
  emit('response.in_progress', { response: progress });
  arr(body.output).forEach((raw, output_index) => {
    const item = obj(raw);
    if (item) replayItem(item, output_index, emit);
  });
  emit(TERMINAL_OF_STATUS[String(body.status)] ?? 'response.completed', { response: body });
  return out;
}

type Emit = (type: string, fields: Json) => void;

function replayItem(item: Json, output_index: number, emit: Emit): void {
  const item_id = str(item.id) ?? '';
  const started: Json = { ...item };
  if ('status' in item) started.status = 'in_progress';
  if (item.type === 'message') started.content = [];
  else if (item.type === 'reasoning') {
    started.summary = [];
    if ('content' in item) started.content = [];
    delete started.encrypted_content;
  } else if (item.type === 'function_call') started.arguments = '';
  else if (item.type === 'custom_tool_call') started.input = '';
  emit('response.output_item.added', { output_index, item: started });
  const at = { item_id, output_index };
  if (item.type === 'message') messageParts(item, at, emit);
  else if (item.type === 'reasoning') reasoningParts(item, at, emit);
  else if (item.type === 'function_call') {
    const args = str(item.arguments) ?? '';
    if (args) emit('response.function_call_arguments.delta', { ...at, delta: args });
    emit('response.function_call_arguments.done', { ...at, name: item.name, arguments: args });
  } else if (item.type === 'custom_tool_call') {
    const input = str(item.input) ?? '';
    if (input) emit('response.custom_tool_call_input.delta', { ...at, delta: input });
    emit('response.custom_tool_call_input.done', { ...at, input });
  }
  emit('response.output_item.done', { output_index, item });
}

interface At {
  readonly item_id: string;
  readonly output_index: number;
}

function messageParts(item: Json, at: At, emit: Emit): void {
  arr(item.content).forEach((raw, content_index) => {
    const part = obj(raw);
    if (!part) return;
    const where = { ...at, content_index };
    if (part.type === 'output_text') {
      const text = str(part.text) ?? '';
      const logprobs = Array.isArray(part.logprobs) ? part.logprobs : [];
      const empty: Json = { type: 'output_text', annotations: [], text: '' };
      if ('logprobs' in part) empty.logprobs = [];
      emit('response.content_part.added', { ...where, part: empty });
      if (text) emit('response.output_text.delta', { ...where, delta: text, logprobs });
      arr(part.annotations).forEach((annotation, annotation_index) => {
        emit('response.output_text.annotation.added', { ...where, annotation_index, annotation });
      });
      emit('response.output_text.done', { ...where, text, logprobs });
    } else if (part.type === 'refusal') {
      const refusal = str(part.refusal) ?? '';
      emit('response.content_part.added', { ...where, part: { type: 'refusal', refusal: '' } });
      if (refusal) emit('response.refusal.delta', { ...where, delta: refusal });
      emit('response.refusal.done', { ...where, refusal });
    } else return;
    emit('response.content_part.done', { ...where, part });
  });
}

function reasoningParts(item: Json, at: At, emit: Emit): void {
  arr(item.summary).forEach((raw, summary_index) => {
    const text = str(obj(raw)?.text) ?? '';
    const where = { ...at, summary_index };
    emit('response.reasoning_summary_part.added', { ...where, part: { type: 'summary_text', text: '' } });
    if (text) emit('response.reasoning_summary_text.delta', { ...where, delta: text });
    emit('response.reasoning_summary_text.done', { ...where, text });
    emit('response.reasoning_summary_part.done', { ...where, part: { type: 'summary_text', text } });
  });
  arr(item.content).forEach((raw, content_index) => {
    const text = str(obj(raw)?.text) ?? '';
    const where = { ...at, content_index };
    emit('response.content_part.added', { ...where, part: { type: 'reasoning_text', text: '' } });
    if (text) emit('response.reasoning_text.delta', { ...where, delta: text });
    emit('response.reasoning_text.done', { ...where, text });
    emit('response.content_part.done', { ...where, part: { type: 'reasoning_text', text } });
  });
}
