/**
 * Workers AI stream events → canonical stream events (pure, stateful per
 * stream). The binding streams `data: {"response":"…"}` chunks, tool calls
 * either whole (`{name, arguments}`) or as OpenAI-style deltas with an `index`,
 * a last chunk with `usage`, then `data: [DONE]`. The adapter's `edgeway`
 * event comes first with the id, model and cap. The finish is inferred at
 * `[DONE]` and sent before the usage, as OpenAI orders them; a stream that
 * stops before `[DONE]` never ends, which the relay reports as a cut stream.
 * Newer models stream OpenAI's chat.completion chunks instead (the same
 * fields in `choices[0].delta`); their `reasoning_content` is a `reasoning` event.
 */
import type { StreamDecoder } from '../codec';
import type { StreamEvent, TokenUsage } from '../ir';
import { arr, jsonText, num, obj, str, eventObject } from '../json';
import { fromOpenAiUsage } from '../openai/usage';
import { callId, inferFinish, readStamp, responseText, STAMP, type Stamp } from './response';

const NO_STAMP: Stamp = { id: '', model: '', created: 0, max_tokens: null };

export function workersAiStreamDecoder(): StreamDecoder {
  let stamp: Stamp | null = null;
  /** The binding's tool-call `index` → our ordinal; whole calls take the next ordinal each. */
  const byIndex = new Map<number, number>();
  let next = 0;
  let usage: TokenUsage | null = null;
  let finishReason: unknown = null;

  const begin = (id: unknown, name: string, out: StreamEvent[]): number => {
    const index = next++;
    out.push({ type: 'tool_call', index, id: str(id) ?? callId(stamp ?? NO_STAMP, index), name });
    return index;
  };

  const toolCalls = (list: readonly unknown[], out: StreamEvent[]): void => {
    for (const raw of list) {
      const c = obj(raw) ?? {};
      const fn = obj(c.function);
      const flatName = fn ? null : str(c.name);
      if (flatName) {
        const index = begin(c.id, flatName, out);
        const args = jsonText(c.arguments);
        if (args !== '') out.push({ type: 'tool_arguments', index, arguments: args });
        continue;
      }
      const key = num(c.index) ?? 0;
      let index = byIndex.get(key);
      if (index === undefined) {
        // The closing `{id: null, function: {name: null}}` sentinel, or arguments for a call never begun.
        const name = str(fn?.name);
        if (!name) continue;
        index = begin(c.id, name, out);
        byIndex.set(key, index);
      }
      const args = fn?.arguments;
      const text = typeof args === 'string' ? args : obj(args) ? JSON.stringify(args) : '';
      if (text !== '') out.push({ type: 'tool_arguments', index, arguments: text });
    }
  };

  return {
    decode({ event, data }) {
      if (event === STAMP) {
        const s = eventObject(data);
        if (!s) return 'malformed';
        if (stamp) return [];
        stamp = readStamp(s);
        return [{ type: 'start', id: stamp.id, model: stamp.model }];
      }
      if (data === '') return [];
      const out: StreamEvent[] = [];
      if (!stamp) {
        // A stream without the adapter's stamp (a recording of the bare binding): start it unnamed.
        stamp = NO_STAMP;
        out.push({ type: 'start', id: '', model: '' });
      }
      if (data === '[DONE]') {
        const reason = inferFinish(finishReason, next > 0, usage?.output ?? null, stamp);
        out.push({ type: 'finish', reason, stopSequence: null });
        if (usage) out.push({ type: 'usage', usage });
        out.push({ type: 'end' });
        return out;
      }
      const chunk = eventObject(data);
      if (!chunk) return 'malformed';
      if (chunk.error !== undefined || chunk.errors !== undefined) {
        const e = obj(chunk.error) ?? obj(arr(chunk.errors)[0]) ?? {};
        const message = str(e.message) ?? str(chunk.error) ?? 'upstream error';
        return [...out, { type: 'error', message, errorType: 'api_error' }];
      }
      // Newer models stream OpenAI's chat.completion.chunk: the fields sit in the first choice's delta.
      const choice = obj(arr(chunk.choices)[0]);
      const delta = obj(choice?.delta);
      const fields = delta
        ? {
            response: delta.content,
            reasoning: delta.reasoning_content,
            calls: delta.tool_calls,
            finish: choice?.finish_reason,
          }
        : {
            response: chunk.response,
            reasoning: chunk.reasoning_content,
            calls: chunk.tool_calls,
            finish: chunk.finish_reason,
          };
      const reasoning = str(fields.reasoning);
      if (reasoning) out.push({ type: 'reasoning', text: reasoning });
      const text = responseText(fields.response);
      if (text) out.push({ type: 'text', text });
      toolCalls(arr(fields.calls), out);
      const u = obj(chunk.usage);
      if (u) usage = fromOpenAiUsage(u);
      if (fields.finish !== undefined && fields.finish !== null) finishReason = fields.finish;
      return out;
    },
  };
}
