/**
 * A faithful fake of Workers AI text-generation models behind the `AI`
 * binding, built from their published input schemas
 * (developers.cloudflare.com/workers-ai/models/llama-3.1-8b-instruct and
 * friends): `messages` (or `prompt`) required, roles system/user/assistant/tool,
 * content a string (an array of text parts for llama-3.3), `tools` in either
 * schema shape with a type and description on every parameter, and the
 * sampling ranges (checked in ./workers-ai-schema.ts). A breach is thrown the way the service throws it
 * (`5006: Error: oneOf at '/' not met …`), an unknown model as `5007`, a
 * prompt plus `max_tokens` over the context window as `5021`.
 *
 * Answers are deterministic: the last user text echoed word by word, a call
 * to the first tool when tools are given and the user spoke last, a filled
 * object in JSON mode. Llama 3.1 and Hermes answer tool calls flat
 * (`{name, arguments: {…}}`), llama 3.3 in OpenAI's shape, streamed as deltas.
 * Streams are `data: {"response":"…"}` events, a usage event, `data: [DONE]`.
 * Not modelled: the `raw` and `lora` fields, images, async batches.
 */

import { type ChatModel, isObject, type Json, schemaError, validate } from './workers-ai-schema';

export const FAKE_CHAT_MODELS: Readonly<Record<string, ChatModel>> = {
  '@cf/meta/llama-3.1-8b-instruct': { contextWindow: 7968, parts: false, toolShape: 'flat' },
  '@cf/meta/llama-3.3-70b-instruct-fp8-fast': { contextWindow: 24000, parts: true, toolShape: 'openai' },
  '@hf/nousresearch/hermes-2-pro-mistral-7b': { contextWindow: 24000, parts: false, toolShape: 'flat' },
};

export interface ChatFaults {
  /** Thrown by every chat call, e.g. `3040: Capacity temporarily exceeded, please try again.`. */
  readonly fail?: string;
  /** Streams stop (closed, no `[DONE]`) after this many text events. */
  readonly cutStreamAfter?: number;
}

/** The answer's plan: text words, a JSON object, or a tool call; with its usage. */
type Plan =
  | { kind: 'text'; words: string[] }
  | { kind: 'json'; value: Json }
  | { kind: 'tool'; name: string; args: Json };

function textOf(content: unknown): string {
  return typeof content === 'string'
    ? content
    : (content as Json[]).map((p) => (typeof p.text === 'string' ? p.text : '')).join('');
}

function plan(inputs: Json, messages: Json[], maxTokens: number): Plan {
  const last = messages.at(-1);
  const lastText = textOf(last?.content ?? '');
  const tools = Array.isArray(inputs.tools) ? (inputs.tools as Json[]) : [];
  const first = tools[0];
  if (first && last?.role === 'user') {
    const fn = (isObject(first.function) ? first.function : first) as Json;
    const params = fn.parameters as Json;
    const args: Json = {};
    for (const name of Array.isArray(params.required) ? (params.required as string[]) : []) {
      const type = ((params.properties as Json)[name] as Json | undefined)?.type;
      args[name] = type === 'number' || type === 'integer' ? 1 : type === 'boolean' ? true : lastText;
    }
    return { kind: 'tool', name: fn.name as string, args };
  }
  const format = isObject(inputs.response_format) ? inputs.response_format : null;
  if (format?.type === 'json_object') return { kind: 'json', value: { answer: lastText } };
  if (format?.type === 'json_schema') {
    const schema = isObject(format.json_schema) ? format.json_schema : {};
    const value: Json = {};
    for (const [name, prop] of Object.entries(isObject(schema.properties) ? schema.properties : {}))
      value[name] = isObject(prop) && prop.type === 'number' ? 1 : lastText;
    return { kind: 'json', value };
  }
  const said = last?.role === 'tool' ? `Tool said: ${lastText}` : `Workers AI echo: ${lastText}`;
  return { kind: 'text', words: said.split(' ').slice(0, maxTokens) };
}

function promptTokens(messages: Json[]): number {
  return messages.reduce((sum, m) => sum + 4 + Math.ceil(textOf(m.content).length / 4), 3);
}

export function runChat(model: string, inputs: unknown, faults: ChatFaults, signal?: AbortSignal): unknown {
  const spec = FAKE_CHAT_MODELS[model];
  if (!spec) throw new Error(`5007: No such model ${model} or task`);
  if (!isObject(inputs)) throw schemaError("type at '/' not met: expected object");
  const { messages, maxTokens } = validate(inputs, spec);
  const prompt = promptTokens(messages);
  if (prompt + maxTokens > spec.contextWindow)
    throw new Error(
      `5021: The estimated number of input and maximum output tokens (${prompt + maxTokens}) exceeded this model context window limit (${spec.contextWindow}).`,
    );
  if (faults.fail) throw new Error(faults.fail);
  const answer = plan(inputs, messages, maxTokens);
  const output = answer.kind === 'text' ? answer.words.length : answer.kind === 'json' ? 8 : 12;
  const usage = { prompt_tokens: prompt, completion_tokens: output, total_tokens: prompt + output };
  const callId = `chatcmpl-tool-${(prompt * 2654435761).toString(16).slice(-12)}`;
  if (inputs.stream === true) return stream(answer, usage, spec, callId, faults, signal);
  if (answer.kind === 'text') return { response: answer.words.join(' '), tool_calls: [], usage };
  if (answer.kind === 'json') return { response: answer.value, tool_calls: [], usage };
  const call =
    spec.toolShape === 'flat'
      ? { name: answer.name, arguments: answer.args }
      : {
          id: callId,
          type: 'function',
          function: { name: answer.name, arguments: JSON.stringify(answer.args) },
        };
  return { response: null, tool_calls: [call], usage };
}

function stream(
  answer: Plan,
  usage: Json,
  spec: ChatModel,
  callId: string,
  faults: ChatFaults,
  signal?: AbortSignal,
): ReadableStream<Uint8Array> {
  const events: Json[] = [];
  if (answer.kind === 'text')
    events.push(...answer.words.map((w, i) => ({ response: i === 0 ? w : ` ${w}` })));
  else if (answer.kind === 'json') events.push({ response: JSON.stringify(answer.value) });
  else if (spec.toolShape === 'flat')
    events.push({ response: '', tool_calls: [{ name: answer.name, arguments: answer.args }] });
  else {
    const args = JSON.stringify(answer.args);
    const half = Math.ceil(args.length / 2);
    const fn = (f: Json) => ({ response: '', tool_calls: [{ index: 0, ...f }] });
    events.push(fn({ id: callId, type: 'function', function: { name: answer.name, arguments: '' } }));
    events.push(fn({ function: { arguments: args.slice(0, half) } }));
    events.push(fn({ function: { arguments: args.slice(half) } }));
    events.push(fn({ id: null, type: null, function: { name: null, arguments: null } }));
  }
  const cut = faults.cutStreamAfter;
  const frames = (cut !== undefined ? events.slice(0, cut) : events).map(
    (e) => `data: ${JSON.stringify(e)}\n\n`,
  );
  if (cut === undefined)
    frames.push(`data: ${JSON.stringify({ response: '', usage })}\n\n`, 'data: [DONE]\n\n');
  const encoder = new TextEncoder();
  let i = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (signal?.aborted) return controller.error(signal.reason);
      const frame = frames[i++];
      if (frame === undefined) controller.close();
      else controller.enqueue(encoder.encode(frame));
    },
  });
}
