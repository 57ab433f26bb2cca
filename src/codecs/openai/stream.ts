/**
 * OpenAI Chat Completions stream chunks ⇄ canonical stream events (pure,
 * stateful per stream). The decoder reads an upstream's chunks; the encoder
 * writes a client's: a role chunk first, content and tool-call deltas, a
 * finish chunk, the usage chunk only when the client asked for it, `[DONE]`.
 */
import type { Frame, StreamDecoder, StreamEncoder } from '../codec';
import type { StreamEvent, TokenUsage } from '../ir';
import { arr, type Json, num, obj, str, eventObject } from '../json';
import { finishFromOpenAi, finishToOpenAi } from './response';
import { merge, ZERO } from '../usage';
import { decodeReasoningFields, detailOf } from './reasoning';
import { fromOpenAiUsage, toOpenAiUsage } from './usage';

export function openAiStreamDecoder(): StreamDecoder {
  let started = false;
  return {
    decode({ data }) {
      if (data === '') return [];
      if (data === '[DONE]') return [{ type: 'end' }];
      const chunk = eventObject(data);
      if (!chunk) return 'malformed';
      const error = obj(chunk.error);
      if (error)
        return [
          {
            type: 'error',
            message: str(error.message) ?? 'upstream error',
            errorType: str(error.type) ?? 'api_error',
          },
        ];
      const out: StreamEvent[] = [];
      if (!started) {
        started = true;
        out.push({ type: 'start', id: str(chunk.id) ?? '', model: str(chunk.model) ?? '' });
      }
      for (const raw of arr(chunk.choices)) {
        const choice = obj(raw) ?? {};
        if ((num(choice.index) ?? 0) !== 0) return 'malformed';
        const delta = obj(choice.delta) ?? {};
        const thought = str(delta.reasoning_content) ?? str(delta.reasoning);
        if (thought) out.push({ type: 'reasoning', text: thought });
        for (const part of decodeReasoningFields({ reasoning_details: delta.reasoning_details })) {
          if (part.issuer === null) continue;
          if (part.type === 'redacted_reasoning')
            out.push({ type: 'redacted_reasoning', data: part.data, issuer: part.issuer });
          else if (part.signature !== null)
            out.push({ type: 'reasoning_signature', signature: part.signature, issuer: part.issuer });
        }
        const text = str(delta.content) ?? str(delta.refusal);
        if (text) out.push({ type: 'text', text });
        for (const c of arr(delta.tool_calls)) {
          const call = obj(c) ?? {};
          const index = num(call.index) ?? 0;
          const fn = obj(call.function) ?? {};
          if (call.id !== undefined || fn.name !== undefined)
            out.push({ type: 'tool_call', index, id: str(call.id) ?? '', name: str(fn.name) ?? '' });
          const args = str(fn.arguments);
          if (args) out.push({ type: 'tool_arguments', index, arguments: args });
        }
        const finish = finishFromOpenAi(choice.finish_reason);
        if (finish) out.push({ type: 'finish', reason: finish, stopSequence: null });
      }
      const usage = obj(chunk.usage);
      if (usage) out.push({ type: 'usage', usage: fromOpenAiUsage(usage) });
      return out;
    },
  };
}

export function openAiStreamEncoder(options: { readonly includeUsage: boolean }): StreamEncoder {
  const head = { id: '', model: '', created: 0 };
  let started = false;
  let usage: TokenUsage | null = null;
  /** The reasoning text of the part in progress, and the parts ended so far (their `reasoning_details` index). */
  let thinking = '';
  let parts = 0;
  const chunk = (choices: Json[], extra: Json = {}): Frame => ({
    event: null,
    data: {
      id: head.id,
      object: 'chat.completion.chunk',
      created: head.created,
      model: head.model,
      choices,
      ...extra,
    },
  });
  const delta = (d: Json, finish: string | null = null): Frame =>
    chunk([{ index: 0, delta: d, logprobs: null, finish_reason: finish }]);
  const start = (id: string, model: string): Frame[] => {
    if (started) return [];
    started = true;
    head.id = id || 'chatcmpl-edgeway';
    head.model = model;
    head.created = Math.floor(Date.now() / 1000);
    return [delta({ role: 'assistant', content: '' })];
  };
  return {
    encode(event) {
      switch (event.type) {
        case 'start':
          return start(event.id, event.model);
        case 'text':
          return [...start('', ''), delta({ content: event.text })];
        case 'reasoning':
          thinking += event.text;
          return [...start('', ''), delta({ reasoning_content: event.text })];
        case 'reasoning_signature':
        case 'redacted_reasoning': {
          // The whole part, signature included, in one `reasoning_details` item as it ends.
          const part =
            event.type === 'redacted_reasoning'
              ? { ...event }
              : {
                  type: 'reasoning' as const,
                  text: thinking,
                  signature: event.signature,
                  issuer: event.issuer,
                };
          thinking = '';
          return [...start('', ''), delta({ reasoning_details: [detailOf(part, parts++)] })];
        }
        case 'tool_call':
          return [
            ...start('', ''),
            delta({
              tool_calls: [
                {
                  index: event.index,
                  id: event.id,
                  type: 'function',
                  function: { name: event.name, arguments: '' },
                },
              ],
            }),
          ];
        case 'tool_arguments':
          return [
            ...start('', ''),
            delta({ tool_calls: [{ index: event.index, function: { arguments: event.arguments } }] }),
          ];
        case 'finish':
          return [...start('', ''), delta({}, finishToOpenAi(event.reason))];
        case 'usage':
          usage = merge(usage ?? ZERO, event.usage);
          return [];
        case 'end': {
          const out = start('', '');
          if (options.includeUsage && usage) out.push(chunk([], { usage: toOpenAiUsage(usage) }));
          out.push({ event: null, data: '[DONE]', ends: 'verbatim' });
          return out;
        }
        case 'error':
          return [
            {
              event: null,
              data: { error: { message: event.message, type: event.errorType, param: null, code: null } },
            },
          ];
      }
    },
    errorFrame(message, code) {
      return { event: null, data: { error: { message, type: 'server_error', param: null, code } } };
    },
  };
}
