/**
 * What the same-format machinery of the Responses API needs to know about its stream events (pure):
 * an event's type, the events that end a stream, and the deltas whose text reaches the client.
 * Every event carries its type both as the `event:` line and as `type` in its data, and a
 * `sequence_number` counting from 0 across the stream; there is no `[DONE]`.
 */
import { type Json, str } from '../json';

/** The events that end a stream, each carrying the whole response (its output and usage). */
export const TERMINAL_EVENTS: readonly string[] = [
  'response.completed',
  'response.incomplete',
  'response.failed',
];

/** The deltas of what the model wrote for the client: text, refusals, tool-call arguments and input. */
export const DELIVERED_DELTAS: readonly string[] = [
  'response.output_text.delta',
  'response.refusal.delta',
  'response.function_call_arguments.delta',
  'response.custom_tool_call_input.delta',
];

/** An event's type: its `event:` name, else the `type` in its data. */
export const eventType = (data: Json, event: string | null): string => event ?? str(data.type) ?? '';

export const isTerminal = (type: string): boolean => TERMINAL_EVENTS.includes(type);
