/**
 * Anthropic Messages stream events ⇄ canonical stream events (pure, stateful
 * per stream). The encoder writes message_start, one content block per text
 * run or tool call (opened when it begins, closed when the next begins or the
 * answer finishes), then message_delta with the stop reason and the usage
 * (held until the end, since OpenAI reports usage after its finish chunk) and
 * message_stop.
 */
import type { Frame, StreamDecoder, StreamEncoder } from '../codec';
import type { FinishReason, StreamEvent, TokenUsage } from '../ir';
import { type Json, num, obj, str, eventObject } from '../json';
import { JSON_ANSWER_TOOL } from '../json-answer';
import { wrapSignature } from './reasoning';
import { DIRECT, finishFromAnthropic, finishToAnthropic } from './response';
import { merge, ZERO } from '../usage';
import { fromAnthropicUsage, toAnthropicUsage } from './usage';

export function anthropicStreamDecoder(): StreamDecoder {
  /** Anthropic block index → tool-call ordinal. */
  const tools = new Map<number, number>();
  /** The block of the forced structured-answer tool (./output-format.ts), whose input is the answer's text. */
  let forced = -1;
  return {
    decode({ event, data }) {
      if (data === '') return [];
      const body = eventObject(data);
      if (!body) return 'malformed';
      const type = event ?? str(body.type);
      const index = num(body.index) ?? 0;
      switch (type) {
        case 'message_start': {
          const message = obj(body.message) ?? {};
          const usage = obj(message.usage);
          const out: StreamEvent[] = [
            { type: 'start', id: str(message.id) ?? '', model: str(message.model) ?? '' },
          ];
          if (usage) out.push({ type: 'usage', usage: fromAnthropicUsage(usage) });
          return out;
        }
        case 'content_block_start': {
          const block = obj(body.content_block) ?? {};
          if (block.type === 'tool_use' && block.name === JSON_ANSWER_TOOL) {
            forced = index;
            return [];
          }
          if (block.type === 'thinking') {
            const text = str(block.thinking);
            return text ? [{ type: 'reasoning', text }] : [];
          }
          if (block.type === 'redacted_thinking')
            return [{ type: 'redacted_reasoning', data: str(block.data) ?? '', issuer: 'anthropic' }];
          if (block.type === 'tool_use') {
            const ordinal = tools.size;
            tools.set(index, ordinal);
            return [
              { type: 'tool_call', index: ordinal, id: str(block.id) ?? '', name: str(block.name) ?? '' },
            ];
          }
          const text = block.type === 'text' ? str(block.text) : null;
          return text ? [{ type: 'text', text }] : [];
        }
        case 'content_block_delta': {
          const delta = obj(body.delta) ?? {};
          if (delta.type === 'text_delta' && typeof delta.text === 'string')
            return [{ type: 'text', text: delta.text }];
          if (delta.type === 'thinking_delta' && typeof delta.thinking === 'string')
            return delta.thinking === '' ? [] : [{ type: 'reasoning', text: delta.thinking }];
          if (delta.type === 'signature_delta' && typeof delta.signature === 'string')
            return [{ type: 'reasoning_signature', signature: delta.signature, issuer: 'anthropic' }];
          if (index === forced && delta.type === 'input_json_delta' && typeof delta.partial_json === 'string')
            return delta.partial_json === '' ? [] : [{ type: 'text', text: delta.partial_json }];
          const ordinal = tools.get(index);
          if (
            delta.type === 'input_json_delta' &&
            ordinal !== undefined &&
            typeof delta.partial_json === 'string'
          )
            return delta.partial_json === ''
              ? []
              : [{ type: 'tool_arguments', index: ordinal, arguments: delta.partial_json }];
          return [];
        }
        case 'message_delta': {
          const out: StreamEvent[] = [];
          const stop = obj(body.delta)?.stop_reason;
          const finish = forced >= 0 && stop === 'tool_use' ? 'end' : finishFromAnthropic(stop);
          if (finish)
            out.push({ type: 'finish', reason: finish, stopSequence: str(obj(body.delta)?.stop_sequence) });
          const usage = obj(body.usage);
          if (usage) out.push({ type: 'usage', usage: fromAnthropicUsage(usage) });
          return out;
        }
        case 'message_stop':
          return [{ type: 'end' }];
        case 'error': {
          const error = obj(body.error) ?? {};
          return [
            {
              type: 'error',
              message: str(error.message) ?? 'upstream error',
              errorType: str(error.type) ?? 'api_error',
            },
          ];
        }
        default:
          // ping, content_block_stop, and event types newer than this codec carry nothing to translate.
          return [];
      }
    },
  };
}

export function anthropicStreamEncoder(): StreamEncoder {
  let started = false;
  let nextBlock = 0;
  let open: { index: number; kind: 'text' | 'tool' | 'thinking'; ordinal: number } | null = null;
  const toolBlocks = new Map<number, number>();
  let finish: { reason: FinishReason; stopSequence: string | null } | null = null;
  let usage: TokenUsage = ZERO;
  const frame = (type: string, data: Json): Frame => ({ event: type, data: { type, ...data } });
  const start = (id: string, model: string): Frame[] => {
    if (started) return [];
    started = true;
    const message = {
      id: id || 'msg_edgeway',
      type: 'message',
      role: 'assistant',
      model,
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: toAnthropicUsage(usage),
    };
    return [frame('message_start', { message })];
  };
  const close = (): Frame[] => {
    if (!open) return [];
    const out = frame('content_block_stop', { index: open.index });
    open = null;
    return [out];
  };
  const openThinking = (): Frame[] => {
    if (open?.kind === 'thinking') return [];
    const out = close();
    open = { index: nextBlock++, kind: 'thinking', ordinal: -1 };
    const block = { type: 'thinking', thinking: '', signature: '' };
    out.push(frame('content_block_start', { index: open.index, content_block: block }));
    return out;
  };
  return {
    encode(event) {
      switch (event.type) {
        case 'start':
          return start(event.id, event.model);
        case 'usage':
          usage = merge(usage, event.usage);
          return [];
        case 'text': {
          const out = start('', '');
          if (open?.kind !== 'text') {
            out.push(...close());
            open = { index: nextBlock++, kind: 'text', ordinal: -1 };
            out.push(
              frame('content_block_start', { index: open.index, content_block: { type: 'text', text: '' } }),
            );
          }
          out.push(
            frame('content_block_delta', {
              index: open.index,
              delta: { type: 'text_delta', text: event.text },
            }),
          );
          return out;
        }
        case 'reasoning': {
          const out = [...start('', ''), ...openThinking()];
          const delta = { type: 'thinking_delta', thinking: event.text };
          out.push(frame('content_block_delta', { index: open?.index ?? 0, delta }));
          return out;
        }
        case 'reasoning_signature': {
          // A signature ends its thinking block (a Gemini signature may come with no text before it).
          const out = [...start('', ''), ...openThinking()];
          const delta = { type: 'signature_delta', signature: wrapSignature(event.signature, event.issuer) };
          out.push(frame('content_block_delta', { index: open?.index ?? 0, delta }), ...close());
          return out;
        }
        case 'redacted_reasoning': {
          const out = [...start('', ''), ...close()];
          const index = nextBlock++;
          const block = { type: 'redacted_thinking', data: wrapSignature(event.data, event.issuer) };
          out.push(frame('content_block_start', { index, content_block: block }));
          out.push(frame('content_block_stop', { index }));
          return out;
        }
        case 'tool_call': {
          const out = [...start('', ''), ...close()];
          open = { index: nextBlock++, kind: 'tool', ordinal: event.index };
          toolBlocks.set(event.index, open.index);
          const block = { type: 'tool_use', id: event.id, name: event.name, input: {}, caller: DIRECT };
          out.push(frame('content_block_start', { index: open.index, content_block: block }));
          return out;
        }
        case 'tool_arguments': {
          const index = toolBlocks.get(event.index);
          if (index === undefined) return [];
          const delta = { type: 'input_json_delta', partial_json: event.arguments };
          return [frame('content_block_delta', { index, delta })];
        }
        case 'finish':
          finish = { reason: event.reason, stopSequence: event.stopSequence };
          return [...start('', ''), ...close()];
        case 'end': {
          const out = [...start('', ''), ...close()];
          const delta = {
            stop_reason: finishToAnthropic(finish?.reason ?? 'end'),
            stop_sequence: finish?.stopSequence ?? null,
          };
          out.push(frame('message_delta', { delta, usage: toAnthropicUsage(usage) }));
          out.push({ ...frame('message_stop', {}), ends: 'verbatim' });
          return out;
        }
        case 'error':
          return [frame('error', { error: { type: event.errorType, message: event.message } })];
      }
    },
    errorFrame(message) {
      return frame('error', { error: { type: 'api_error', message } });
    },
  };
}
