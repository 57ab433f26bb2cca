/**
 * The canonical request → Workers AI chat inputs for `env.AI.run(model, inputs)`
 * (pure): `messages` of roles system/user/assistant/tool, `tools` in the
 * OpenAI function shape, `response_format`, sampling fields and `max_tokens`.
 * What the model cannot take is refused with a 400 naming it; what only tunes
 * another provider (reasoning requests, cache breakpoints, `prompt_cache_key`)
 * is dropped and named. The rules are in docs/providers/workers-ai.md.
 */
import { hasCacheMarkers } from '../cache';
import type { EncodeContext } from '../codec';
import { systemText, turnText } from '../system';
import type { ChatRequest, ImagePart, Message, TextPart, Tool } from '../ir';
import { type Json, obj, unsupported } from '../json';
import { type WorkersAiChatModel, workersAiModel } from './models';

const FORMAT = 'workers-ai';

/** A model this gateway does not list: tools and JSON mode are sent and the binding decides; content goes as text. */
const UNLISTED: WorkersAiChatModel = { kind: 'chat', tools: true, json: true, parts: false, images: false };

/** What a chat model takes: its listed capabilities, or the unlisted default. */
export function chatModel(model: string): WorkersAiChatModel {
  const known = workersAiModel(model);
  return known?.kind === 'chat' ? known : UNLISTED;
}

export function encodeWorkersAiRequest(request: ChatRequest, context: EncodeContext): Json {
  const model = chatModel(context.model);
  if (request.n !== 1) throw unsupported('n', FORMAT, 'above 1');
  if (request.stop.length > 0) throw unsupported('stop', FORMAT, '(Workers AI takes no stop sequences)');
  const messages: Json[] = [];
  const system = systemText(request);
  if (system !== null) messages.push({ role: 'system', content: system });
  request.messages.forEach((m, i) => {
    // A system turn mid-conversation stays where it is: the models' chat templates take system messages anywhere.
    if (m.role === 'system') messages.push({ role: 'system', content: turnText(m.content) });
    else messages.push(...encodeMessage(m, i, request.messages, model));
  });
  // None of the listed models takes a reasoning request (their input schemas have no such field), nor cache breakpoints.
  if (request.reasoning && request.reasoning.mode !== 'off') context.dropped.push('reasoning');
  if (hasCacheMarkers(request)) context.dropped.push('cache_control');
  if (request.promptCacheKey !== null) context.dropped.push('prompt_cache_key');
  // Workers AI's own default is 256 tokens: always sending a cap keeps an uncapped request from being cut short.
  const inputs: Json = { messages, max_tokens: request.maxTokens ?? context.outputCap };
  if (request.temperature !== null) inputs.temperature = request.temperature;
  if (request.topP !== null) inputs.top_p = request.topP;
  if (request.topK !== null) inputs.top_k = request.topK;
  if (request.stream) inputs.stream = true;
  if (request.tools.length > 0 && request.toolChoice?.type !== 'none') {
    if (!model.tools) throw unsupported('tools', FORMAT, 'with this model (it does not call functions)');
    if (request.toolChoice && request.toolChoice.type !== 'auto')
      throw unsupported('tool_choice', FORMAT, "other than 'auto' or 'none'");
    // Workers AI cannot forbid parallel calls; the client still gets well-formed calls, perhaps several.
    if (request.parallelToolCalls === false) context.dropped.push('parallel_tool_calls');
    inputs.tools = request.tools.map(encodeTool);
  }
  if (request.responseFormat) {
    if (!model.json) throw unsupported('response_format', FORMAT, 'with this model (it has no JSON mode)');
    if (request.stream)
      throw unsupported('response_format', FORMAT, 'with stream (JSON mode does not stream)');
    const f = request.responseFormat;
    inputs.response_format =
      f.type === 'json_object' ? { type: 'json_object' } : { type: 'json_schema', json_schema: f.schema };
  }
  return inputs;
}

function encodeMessage(m: Message, i: number, all: readonly Message[], model: WorkersAiChatModel): Json[] {
  const param = (j: number) => `messages[${i}].content[${j}]`;
  if (m.role === 'assistant') {
    const text: TextPart[] = [];
    const calls: Json[] = [];
    m.content.forEach((p, j) => {
      if (p.type === 'text') text.push(p);
      else if (p.type === 'tool_call')
        calls.push({ id: p.id, type: 'function', function: { name: p.name, arguments: p.arguments } });
      else if (p.type === 'reasoning' || p.type === 'redacted_reasoning')
        return; // the models take no reasoning back
      else throw unsupported(param(j), FORMAT, `as a ${p.type} part in an assistant message`);
    });
    return [
      {
        role: 'assistant',
        content: content(text, model, i),
        ...(calls.length > 0 ? { tool_calls: calls } : {}),
      },
    ];
  }
  // A user turn: its tool results become `tool` messages, in order, around its text and images.
  const out: Json[] = [];
  let run: (TextPart | ImagePart)[] = [];
  const flush = () => {
    if (run.length > 0) out.push({ role: 'user', content: content(run, model, i) });
    run = [];
  };
  m.content.forEach((p, j) => {
    if (p.type === 'text' || p.type === 'image') run.push(p);
    else if (p.type === 'file')
      throw unsupported(param(j), FORMAT, 'as a file (Workers AI models take no documents)');
    else if (p.type === 'tool_result') {
      flush();
      if (p.content.some((c) => c.type === 'image'))
        throw unsupported(`${param(j)}.content`, FORMAT, 'with an image in a tool result');
      const text = p.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const name = callName(all, i, p.toolCallId);
      out.push({
        role: 'tool',
        tool_call_id: p.toolCallId,
        ...(name ? { name } : {}),
        // Workers AI has no error flag on a tool result: it travels in the content, as Gemini's does.
        content: p.isError ? JSON.stringify({ error: text }) : text,
      });
    } else throw unsupported(param(j), FORMAT, 'as a tool call in a user message');
  });
  flush();
  return out;
}

/** One string for models that take only that; parts for those that take parts (and images for those that see). */
function content(
  parts: readonly (TextPart | ImagePart)[],
  model: WorkersAiChatModel,
  i: number,
): string | Json[] {
  const images = parts.some((p) => p.type === 'image');
  if (images && !model.images)
    throw unsupported(`messages[${i}].content`, FORMAT, 'with an image for this text-only model');
  if (!images || !model.parts) return parts.map((p) => (p.type === 'text' ? p.text : '')).join('\n');
  return parts.map((p) =>
    p.type === 'text'
      ? { type: 'text', text: p.text }
      : {
          type: 'image_url',
          image_url: {
            url:
              p.source.kind === 'url' ? p.source.url : `data:${p.source.mediaType};base64,${p.source.data}`,
          },
        },
  );
}

/** The name of the latest earlier call with this id (Workers AI's tool messages may carry it). */
function callName(messages: readonly Message[], before: number, id: string): string | null {
  for (let i = before - 1; i >= 0; i--) {
    for (const part of messages[i]?.content ?? [])
      if (part.type === 'tool_call' && part.id === id) return part.name;
  }
  return null;
}

/**
 * Workers AI validates tools against its schema: a description and, in
 * `parameters`, `type`, `properties` and a `description` on every property.
 * Missing descriptions and properties are sent empty, which adds nothing the
 * model would read as meaning; a missing property `type` is left for the binding to refuse.
 */
function encodeTool(t: Tool): Json {
  const properties: Json = {};
  for (const [name, schema] of Object.entries(obj(t.parameters.properties) ?? {})) {
    const s = obj(schema) ?? {};
    properties[name] = { ...s, description: s.description ?? '' };
  }
  return {
    type: 'function',
    function: {
      name: t.name,
      description: t.description ?? '',
      parameters: { ...t.parameters, type: t.parameters.type ?? 'object', properties },
    },
  };
}
