/**
 * ConverseStream events → canonical stream events (pure, stateful per stream).
 * The adapter turns Bedrock's binary event stream into SSE first
 * (src/providers/bedrock-event-stream.ts): each event message becomes
 * `event: <:event-type>` with its JSON payload as data; an exception or error
 * message becomes `event: error` with `{type, message}`; a message that does
 * not decode becomes `event: malformed`.
 *
 * Terminator rule: Bedrock ends every stream with messageStop and then
 * metadata (the usage), so `end` is emitted after metadata and nothing else. A
 * stream cut anywhere before metadata, even right after messageStop, never
 * ends and is reported as incomplete: its usage would be unknown.
 *
 * Reasoning deltas (`delta.reasoningContent`: `text`, `signature`,
 * `redactedContent`) are `reasoning`, `reasoning_signature` and
 * `redacted_reasoning` events issued by 'bedrock'. The forced structured-output
 * tool's input (./output-format.ts) streams as the answer's text.
 */
import type { StreamDecoder } from '../codec';
import type { StreamEvent } from '../ir';
import { JSON_ANSWER_TOOL } from '../json-answer';
import { finishFromBedrock, newAnswerId } from './response';
import { fromBedrockUsage } from './usage';
import { eventObject, type Json, num, obj, str } from '../json';

/** The SSE event names the adapter writes besides Bedrock's own event types. */
export const BEDROCK_ERROR_EVENT = 'error';
export const BEDROCK_MALFORMED_EVENT = 'malformed';

export function bedrockStreamDecoder(): StreamDecoder {
  let started = false;
  let ended = false;
  /** contentBlockIndex of each tool-use block → its canonical tool-call index. */
  const tools = new Map<number, number>();
  /** contentBlockIndex of the forced structured-output tool, whose input is the answer's text. */
  let forced: number | null = null;

  const start = (): StreamEvent[] => {
    if (started) return [];
    started = true;
    return [{ type: 'start', id: newAnswerId(), model: '' }];
  };

  return {
    decode({ event, data }) {
      if (ended) return [];
      if (event === BEDROCK_MALFORMED_EVENT) return 'malformed';
      const payload = eventObject(data);
      if (!payload) return 'malformed';
      switch (event) {
        case BEDROCK_ERROR_EVENT:
          return [
            {
              type: 'error',
              message: str(payload.message) ?? 'Bedrock reported an error mid-stream.',
              errorType: str(payload.type) ?? 'internalServerException',
            },
          ];
        case 'messageStart':
          return start();
        case 'contentBlockStart': {
          const use = obj(obj(payload.start)?.toolUse);
          const block = num(payload.contentBlockIndex);
          if (!use) return start();
          if (block === null || tools.has(block)) return 'malformed';
          if (use.name === JSON_ANSWER_TOOL) {
            forced = block;
            return start();
          }
          const index = tools.size;
          tools.set(block, index);
          return [
            ...start(),
            { type: 'tool_call', index, id: str(use.toolUseId) ?? '', name: str(use.name) ?? '' },
          ];
        }
        case 'contentBlockDelta': {
          const delta = obj(payload.delta) ?? {};
          const text = str(delta.text);
          if (text !== null) return text === '' ? start() : [...start(), { type: 'text', text }];
          const reasoning = obj(delta.reasoningContent);
          if (reasoning) return [...start(), ...reasoningEvents(reasoning)];
          const use = obj(delta.toolUse);
          if (!use) return start(); // citation and other deltas have no canonical form
          const input = str(use.input);
          if (forced !== null && num(payload.contentBlockIndex) === forced)
            return input ? [...start(), { type: 'text', text: input }] : start();
          const index = tools.get(num(payload.contentBlockIndex) ?? -1);
          if (index === undefined || input === null) return 'malformed';
          return input === '' ? start() : [...start(), { type: 'tool_arguments', index, arguments: input }];
        }
        case 'contentBlockStop':
          return start();
        case 'messageStop': {
          const reason =
            forced !== null && payload.stopReason === 'tool_use'
              ? 'end'
              : finishFromBedrock(payload.stopReason);
          if (!reason) return 'malformed';
          return [...start(), { type: 'finish', reason, stopSequence: null }];
        }
        case 'metadata': {
          ended = true;
          const usage = obj(payload.usage);
          return [
            ...start(),
            ...(usage ? [{ type: 'usage', usage: fromBedrockUsage(usage) } as const] : []),
            { type: 'end' },
          ];
        }
        default:
          return []; // an event type this gateway does not know yet carries nothing it could translate
      }
    },
  };
}

/** One reasoning delta: text, the signature that ends its block, or redacted bytes (base64). */
function reasoningEvents(delta: Json): StreamEvent[] {
  const text = str(delta.text);
  if (text !== null) return text === '' ? [] : [{ type: 'reasoning', text }];
  const signature = str(delta.signature);
  if (signature !== null) return [{ type: 'reasoning_signature', signature, issuer: 'bedrock' }];
  const redacted = str(delta.redactedContent);
  if (redacted !== null) return [{ type: 'redacted_reasoning', data: redacted, issuer: 'bedrock' }];
  return [];
}
