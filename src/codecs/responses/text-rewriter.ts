/**
 * The guardrails' rewriter of a Responses stream (src/guardrails/stream-guard.ts). Each text the
 * model writes for the client (a message's output text or refusal, a function call's arguments, a
 * custom tool call's input) goes through its own transform, delta by delta. Responses streams then
 * repeat each text whole, in the events that end it (`response.output_text.done`,
 * `response.refusal.done`, `response.function_call_arguments.done`,
 * `response.custom_tool_call_input.done`, `response.content_part.done`, `response.output_item.done`)
 * and in the terminal event's response: each of those gets the text as it was relayed (the
 * rewritten deltas and the flush), never the provider's, so a redacted value cannot reach the client
 * through them. What a transform still held is flushed as one more delta just before the first of
 * those events, or before the terminal event (`finish`). A text that came with no delta is passed
 * through its transform whole. Texts in the responses of `response.created` / `response.in_progress`
 * and in items and parts as they are added (empty, from OpenAI) are passed through transforms of
 * their own. Reasoning summaries are the model's own and are left as they are, as on the other formats.
 *
 * Texts are keyed by their item's output index and, for message parts, their content index
 * (`o<output>c<content>`, `o<output>` for a tool call's): every event names the output index, and
 * the terminal response's output is in that order. Since flushes add events, every event relayed is
 * numbered again (`sequence_number` from 0, one by one), so the stream stays well-formed.
 */
import type { RewrittenEvent } from '../../sse/observer';
import type { TextFlush, TextRewriter, TextThrough } from '../codec';
import { arr, type Json, num, obj, str } from '../json';
import { eventType, isTerminal } from './relay-events';

type Kind = 'text' | 'refusal' | 'arguments' | 'input';

const DELTA_EVENTS: Record<Kind, string> = {
  text: 'response.output_text.delta',
  refusal: 'response.refusal.delta',
  arguments: 'response.function_call_arguments.delta',
  input: 'response.custom_tool_call_input.delta',
};
const KIND_OF_DELTA: Record<string, Kind> = Object.fromEntries(
  Object.entries(DELTA_EVENTS).map(([kind, type]) => [type, kind as Kind]),
);
/** The events that end one text, and the field holding it whole. */
const DONE_FIELDS: Record<string, { field: string; part: boolean }> = {
  'response.output_text.done': { field: 'text', part: true },
  'response.refusal.done': { field: 'refusal', part: true },
  'response.function_call_arguments.done': { field: 'arguments', part: false },
  'response.custom_tool_call_input.done': { field: 'input', part: false },
};

interface Text {
  /** Everything relayed of it so far. */
  relayed: string;
  /** While its transform is open: the delta event its flush is relayed in. */
  open: Json | null;
}

/** The text a whole one becomes, for a key: null to leave it as it is. */
type Settle = (key: string, whole: unknown) => string | null;

const keyOf = (output: number, content: number | null) =>
  content === null ? `o${output}` : `o${output}c${content}`;

export function responsesTextRewriter(through: TextThrough, flush: TextFlush): TextRewriter {
  const texts = new Map<string, Text>();
  let sequence = 0;
  let snapshots = 0;

  const numbered = (events: RewrittenEvent[]): RewrittenEvent[] => {
    for (const e of events) e.data.sequence_number = sequence++;
    return events;
  };

  /** Ends an open text: what its transform held goes out as one more delta, before `out`'s next event. */
  const close = (key: string, text: Text, out: RewrittenEvent[]): void => {
    const template = text.open;
    text.open = null;
    const rest = flush(key);
    if (!template || !rest) return;
    text.relayed += rest;
    const data: Json = { ...template, delta: rest };
    if (template.type === DELTA_EVENTS.text) data.logprobs = [];
    out.push({ event: String(template.type), data });
  };

  /** The text relayed for `key`, ending it if it is open; a text never streamed goes through whole. */
  const settleInto =
    (out: RewrittenEvent[]): Settle =>
    (key, whole) => {
      const text = texts.get(key);
      if (text) {
        if (text.open) close(key, text, out);
        return text.relayed;
      }
      if (typeof whole !== 'string' || whole === '') return null;
      const relayed = through(key, whole) + flush(key);
      texts.set(key, { relayed, open: null });
      return relayed;
    };

  /** A text shown before it is streamed (normally empty): through a transform of its own. */
  const snapshot: Settle = (_key, whole) => {
    if (typeof whole !== 'string' || whole === '') return null;
    const key = `s${snapshots++}`;
    return through(key, whole) + flush(key);
  };

  const pass = (data: Json, kind: Kind): void => {
    const delta = str(data.delta);
    if (delta === null) return;
    const output = num(data.output_index) ?? 0;
    const content = kind === 'text' || kind === 'refusal' ? (num(data.content_index) ?? 0) : null;
    const key = keyOf(output, content);
    const text = texts.get(key) ?? { relayed: '', open: null };
    texts.set(key, text);
    text.open ??= {
      type: DELTA_EVENTS[kind],
      item_id: data.item_id,
      output_index: output,
      ...(content === null ? {} : { content_index: content }),
    };
    const passed = through(key, delta);
    data.delta = passed;
    text.relayed += passed;
  };

  const ended = (type: string, data: Json, out: RewrittenEvent[]): void => {
    const settle = settleInto(out);
    const output = num(data.output_index) ?? 0;
    const content = num(data.content_index) ?? 0;
    const done = DONE_FIELDS[type];
    if (done) set(data, done.field, settle(keyOf(output, done.part ? content : null), data[done.field]));
    else if (type === 'response.content_part.done') partTexts(obj(data.part), keyOf(output, content), settle);
    else if (type === 'response.content_part.added') partTexts(obj(data.part), '', snapshot);
    else if (type === 'response.output_item.done') itemTexts(obj(data.item), output, settle);
    else if (type === 'response.output_item.added') itemTexts(obj(data.item), output, snapshot);
    else {
      const response = obj(data.response);
      if (!response) return;
      arr(response.output).forEach((item, i) => {
        itemTexts(obj(item), i, isTerminal(type) ? settle : snapshot);
      });
    }
  };

  return {
    rewrite(data, event) {
      const out: RewrittenEvent[] = [];
      const type = eventType(data, event);
      const kind = KIND_OF_DELTA[type];
      if (kind) pass(data, kind);
      else ended(type, data, out);
      out.push({ event, data });
      return numbered(out);
    },
    finish(open) {
      const out: RewrittenEvent[] = [];
      for (const key of open) {
        const text = texts.get(key);
        if (text?.open) close(key, text, out);
      }
      return numbered(out);
    },
  };
}

function set(holder: Json, field: string, text: string | null): void {
  if (text !== null) holder[field] = text;
}

function partTexts(part: Json | null, key: string, settle: Settle): void {
  if (part?.type === 'output_text') set(part, 'text', settle(key, part.text));
  else if (part?.type === 'refusal') set(part, 'refusal', settle(key, part.refusal));
}

function itemTexts(item: Json | null, output: number, settle: Settle): void {
  if (item?.type === 'message')
    arr(item.content).forEach((part, i) => {
      partTexts(obj(part), keyOf(output, i), settle);
    });
  else if (item?.type === 'function_call')
    set(item, 'arguments', settle(keyOf(output, null), item.arguments));
  else if (item?.type === 'custom_tool_call') set(item, 'input', settle(keyOf(output, null), item.input));
}
