/**
 * Responses API stream events ⇄ canonical stream events (pure, stateful per stream). The encoder
 * writes a client's: `response.created` and `response.in_progress`, then each output item opened
 * (`response.output_item.added`), its deltas, its `…done` events and `response.output_item.done` with
 * the whole item, then `response.completed` (or `response.incomplete`) carrying the whole response;
 * every event numbered by `sequence_number`, and no `[DONE]`. Items are closed as the next begins,
 * and named as the JSON answer names them (./response.ts). The decoder reads an upstream's. Longer
 * than most files: the two directions sit together, as in the other formats' stream modules.
 */
import type { AnswerContext, Frame, StreamDecoder, StreamEncoder } from '../codec';
import type { FinishReason, StreamEvent, TokenUsage } from '../ir';
import { eventObject, type Json, num, obj, str } from '../json';
import { merge, ZERO } from '../usage';
import { decodeEncryptedContent, reasoningItem } from './reasoning';
import {
  finishOf,
  itemId,
  messageItem,
  outputText,
  responseIdOf,
  responseObject,
  statusOf,
  toolCallItem,
} from './response';
import { canonicalToolName, type ClientTool, clientTools, customInput } from './tools';
import { fromResponsesUsage } from './usage';

/** The item being written: a message's text, a reasoning part's text, or a tool call's arguments. */
type OpenItem =
  | { readonly kind: 'message'; readonly index: number; readonly id: string; text: string }
  | { readonly kind: 'reasoning'; readonly index: number; readonly id: string; text: string }
  | {
      readonly kind: 'tool';
      readonly index: number;
      readonly id: string;
      readonly call: { id: string; name: string; arguments: string };
      /** How the client declared the tool (a custom tool, a namespace's member); absent: a function. */
      readonly client: ClientTool | undefined;
      readonly custom: boolean;
    };

export function responsesStreamEncoder(options: {
  readonly includeUsage: boolean;
  readonly context?: AnswerContext;
}): StreamEncoder {
  const context = options.context;
  const declared = clientTools(context?.body);
  const head = { id: '', model: '', createdAt: 0 };
  let started = false;
  let sequence = 0;
  let open: OpenItem | null = null;
  const output: Json[] = [];
  /** Tool calls by their canonical index, for arguments that arrive after their item closed. */
  const calls = new Map<number, Extract<OpenItem, { kind: 'tool' }>>();
  let finish: FinishReason | null = null;
  let usage: TokenUsage | null = null;
  const frame = (type: string, data: Json): Frame => ({
    event: type,
    data: { type, sequence_number: sequence++, ...data },
  });
  const state = (status: string, incompleteDetails: Json | null, withUsage: boolean) =>
    responseObject(
      {
        id: head.id,
        createdAt: head.createdAt,
        model: head.model,
        status,
        incompleteDetails,
        output: withUsage ? output : [],
        usage: withUsage ? usage : null,
      },
      context,
    );
  const start = (id: string, model: string): Frame[] => {
    if (started) return [];
    started = true;
    head.id = responseIdOf(id, context);
    head.model = model;
    head.createdAt = Math.floor(Date.now() / 1000);
    return [
      frame('response.created', { response: state('in_progress', null, false) }),
      frame('response.in_progress', { response: state('in_progress', null, false) }),
    ];
  };
  const added = (item: Json): Frame =>
    frame('response.output_item.added', { output_index: output.length, item });
  const done = (index: number, item: Json): Frame => {
    output[index] = item;
    return frame('response.output_item.done', { output_index: index, item });
  };
  const close = (signature: { encrypted: string } | null = null): Frame[] => {
    const item = open;
    if (!item) return [];
    open = null;
    const at = { item_id: item.id, output_index: item.index };
    if (item.kind === 'message') {
      const part = outputText(item.text);
      return [
        frame('response.output_text.done', { ...at, content_index: 0, text: item.text, logprobs: [] }),
        frame('response.content_part.done', { ...at, content_index: 0, part }),
        done(item.index, messageItem(item.id, [item.text])),
      ];
    }
    if (item.kind === 'reasoning') {
      const out: Frame[] = [];
      if (item.text !== '') {
        const part = { type: 'summary_text', text: item.text };
        out.push(frame('response.reasoning_summary_text.done', { ...at, summary_index: 0, text: item.text }));
        out.push(frame('response.reasoning_summary_part.done', { ...at, summary_index: 0, part }));
      }
      const summary = item.text === '' ? [] : [{ type: 'summary_text', text: item.text }];
      const encrypted = signature ? { encrypted_content: signature.encrypted } : {};
      out.push(done(item.index, { id: item.id, type: 'reasoning', summary, ...encrypted }));
      return out;
    }
    const whole = toolCallItem(item.id, item.call, item.client);
    if (!item.custom)
      return [
        frame('response.function_call_arguments.done', {
          ...at,
          name: item.client?.name ?? item.call.name,
          arguments: item.call.arguments,
        }),
        done(item.index, whole),
      ];
    // A custom tool's input is known whole only once its canonical arguments (`{"input": …}`) are.
    const input = customInput(item.call.arguments);
    return [
      ...(input === '' ? [] : [frame('response.custom_tool_call_input.delta', { ...at, delta: input })]),
      frame('response.custom_tool_call_input.done', { ...at, input }),
      done(item.index, whole),
    ];
  };
  const openItem = (item: OpenItem, whole: Json): Frame[] => {
    open = item;
    const frames = [added(whole)];
    output.push(whole);
    return frames;
  };
  const openReasoning = (): Frame[] => {
    if (open?.kind === 'reasoning') return [];
    const out = close();
    const index = output.length;
    const id = itemId('rs', head.id, index);
    out.push(...openItem({ kind: 'reasoning', index, id, text: '' }, { id, type: 'reasoning', summary: [] }));
    return out;
  };
  return {
    encode(event) {
      switch (event.type) {
        case 'start':
          return start(event.id, event.model);
        case 'usage':
          usage = merge(usage ?? ZERO, event.usage);
          return [];
        case 'text': {
          const out = start('', '');
          if (open?.kind !== 'message') {
            out.push(...close());
            const index = output.length;
            const id = itemId('msg', head.id, index);
            out.push(
              ...openItem({ kind: 'message', index, id, text: '' }, messageItem(id, [], 'in_progress')),
            );
            const part = outputText('');
            out.push(
              frame('response.content_part.added', {
                item_id: id,
                output_index: index,
                content_index: 0,
                part,
              }),
            );
          }
          const item = open as Extract<OpenItem, { kind: 'message' }>;
          item.text += event.text;
          const at = { item_id: item.id, output_index: item.index, content_index: 0 };
          out.push(frame('response.output_text.delta', { ...at, delta: event.text, logprobs: [] }));
          return out;
        }
        case 'reasoning': {
          const out = [...start('', ''), ...openReasoning()];
          if (event.text === '') return out;
          const item = open as Extract<OpenItem, { kind: 'reasoning' }>;
          const at = { item_id: item.id, output_index: item.index, summary_index: 0 };
          if (item.text === '')
            out.push(
              frame('response.reasoning_summary_part.added', {
                ...at,
                part: { type: 'summary_text', text: '' },
              }),
            );
          item.text += event.text;
          out.push(frame('response.reasoning_summary_text.delta', { ...at, delta: event.text }));
          return out;
        }
        case 'reasoning_signature': {
          // A signature ends its reasoning part (a Gemini signature may come with no text before it).
          const out = [...start('', ''), ...openReasoning()];
          const item = open as Extract<OpenItem, { kind: 'reasoning' }>;
          const part = {
            type: 'reasoning' as const,
            text: item.text,
            signature: event.signature,
            issuer: event.issuer,
          };
          const encrypted = str(reasoningItem(part, item.id)?.encrypted_content);
          out.push(...close(encrypted === null ? null : { encrypted }));
          return out;
        }
        case 'redacted_reasoning': {
          const out = [...start('', ''), ...close()];
          const index = output.length;
          const item = reasoningItem({ ...event, type: 'redacted_reasoning' }, itemId('rs', head.id, index));
          if (!item) return out;
          out.push(added(item));
          output.push(item);
          out.push(done(index, item));
          return out;
        }
        case 'tool_call': {
          const out = [...start('', ''), ...close()];
          const index = output.length;
          const client = declared.get(event.name);
          const isCustom = client?.custom === true;
          const id = itemId(isCustom ? 'ctc' : 'fc', head.id, index);
          const item = {
            kind: 'tool' as const,
            index,
            id,
            call: { id: event.id, name: event.name, arguments: '' },
            client,
            custom: isCustom,
          };
          calls.set(event.index, item);
          // The item as it opens: no arguments yet, and a function call still in progress.
          const opened = toolCallItem(id, item.call, client);
          const whole = isCustom ? opened : { ...opened, status: 'in_progress' };
          out.push(...openItem(item, whole));
          return out;
        }
        case 'tool_arguments': {
          const item = calls.get(event.index);
          if (!item) return [];
          item.call.arguments += event.arguments;
          // Arguments of a call whose item already closed (calls interleaved) still reach the final response.
          if (item !== open) output[item.index] = toolCallItem(item.id, item.call, item.client);
          if (item.custom) return [];
          const at = { item_id: item.id, output_index: item.index };
          return [frame('response.function_call_arguments.delta', { ...at, delta: event.arguments })];
        }
        case 'finish':
          finish = event.reason;
          return [...start('', ''), ...close()];
        case 'end': {
          const out = [...start('', ''), ...close()];
          const { status, incomplete_details } = statusOf(finish);
          const type = status === 'incomplete' ? 'response.incomplete' : 'response.completed';
          out.push({
            ...frame(type, { response: state(status, incomplete_details, true) }),
            ends: 'repeats',
          });
          return out;
        }
        case 'error':
          return [frame('error', { code: event.errorType, message: event.message, param: null })];
      }
    },
    errorFrame(message, code) {
      return frame('error', { code, message, param: null });
    },
  };
}

/** The JSON text of a custom tool's input, split as its deltas come: `{"input":"`, each delta escaped, `"}`. */
const escaped = (text: string): string => JSON.stringify(text).slice(1, -1);

export function responsesStreamDecoder(): StreamDecoder {
  /** Output item id → the tool call's canonical index, and whether it is a custom tool's (input streamed as JSON text). */
  const tools = new Map<string, { index: number; custom: boolean; opened: boolean }>();
  let calledTools = false;
  const toolOf = (body: Json) => tools.get(str(body.item_id) ?? '');
  return {
    decode({ event, data }) {
      if (data === '' || data === '[DONE]') return [];
      const body = eventObject(data);
      if (!body) return 'malformed';
      switch (str(body.type) ?? event) {
        case 'response.created': {
          const response = obj(body.response) ?? {};
          return [{ type: 'start', id: str(response.id) ?? '', model: str(response.model) ?? '' }];
        }
        case 'response.output_item.added': {
          const item = obj(body.item) ?? {};
          if (item.type !== 'function_call' && item.type !== 'custom_tool_call') return [];
          calledTools = true;
          const index = tools.size;
          const custom = item.type === 'custom_tool_call';
          tools.set(str(item.id) ?? `#${num(body.output_index) ?? index}`, { index, custom, opened: false });
          const out: StreamEvent[] = [
            {
              type: 'tool_call',
              index,
              id: str(item.call_id) ?? '',
              name: canonicalToolName(str(item.namespace), str(item.name) ?? ''),
            },
          ];
          const args = str(item.arguments);
          if (!custom && args) out.push({ type: 'tool_arguments', index, arguments: args });
          return out;
        }
        case 'response.function_call_arguments.delta': {
          const tool = toolOf(body);
          const delta = str(body.delta);
          return tool && delta ? [{ type: 'tool_arguments', index: tool.index, arguments: delta }] : [];
        }
        case 'response.custom_tool_call_input.delta': {
          const tool = toolOf(body);
          const delta = str(body.delta);
          if (!tool || !delta) return [];
          const head = tool.opened ? '' : '{"input":"';
          tool.opened = true;
          return [{ type: 'tool_arguments', index: tool.index, arguments: head + escaped(delta) }];
        }
        case 'response.output_item.done':
          return itemDone(obj(body.item) ?? {});
        case 'response.output_text.delta':
        case 'response.refusal.delta': {
          const delta = str(body.delta);
          return delta ? [{ type: 'text', text: delta }] : [];
        }
        case 'response.reasoning_summary_part.added':
          // Summaries of one reasoning item are joined by blank lines, as a JSON answer's are.
          return (num(body.summary_index) ?? 0) > 0 ? [{ type: 'reasoning', text: '\n\n' }] : [];
        case 'response.reasoning_summary_text.delta':
        case 'response.reasoning_text.delta': {
          const delta = str(body.delta);
          return delta ? [{ type: 'reasoning', text: delta }] : [];
        }
        case 'response.completed':
        case 'response.incomplete': {
          const response = obj(body.response) ?? {};
          const out: StreamEvent[] = [];
          const finish = finishOf(response, calledTools);
          if (finish) out.push({ type: 'finish', reason: finish, stopSequence: null });
          const usage = obj(response.usage);
          if (usage) out.push({ type: 'usage', usage: fromResponsesUsage(usage) });
          out.push({ type: 'end' });
          return out;
        }
        case 'response.failed': {
          const error = obj(obj(body.response)?.error) ?? {};
          return [
            {
              type: 'error',
              message: str(error.message) ?? 'The provider failed to generate a response.',
              errorType: str(error.code) ?? 'api_error',
            },
          ];
        }
        case 'error':
          return [
            {
              type: 'error',
              message: str(body.message) ?? 'upstream error',
              errorType: str(body.code) ?? 'api_error',
            },
          ];
        default:
          // in_progress, content parts, the …done events (their deltas came first), and event types newer than this codec.
          return [];
      }
    },
  };

  /** An item's end: a reasoning item's encrypted content, or the close of a custom tool's input. */
  function itemDone(item: Json): StreamEvent[] {
    if (item.type === 'reasoning') {
      const encrypted = str(item.encrypted_content);
      if (!encrypted) return [];
      const decoded = decodeEncryptedContent(encrypted);
      return decoded.redacted
        ? [{ type: 'redacted_reasoning', data: decoded.data, issuer: decoded.issuer }]
        : [{ type: 'reasoning_signature', signature: decoded.signature, issuer: decoded.issuer }];
    }
    const tool = tools.get(str(item.id) ?? '');
    if (item.type !== 'custom_tool_call' || !tool) return [];
    const input = str(item.input) ?? '';
    const args = tool.opened ? '"}' : JSON.stringify({ input });
    tool.opened = true;
    return [{ type: 'tool_arguments', index: tool.index, arguments: args }];
  }
}
