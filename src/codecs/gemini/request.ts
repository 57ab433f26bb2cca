/**
 * The canonical request → a Gemini `generateContent` body (pure): contents of
 * roles user/model with text, inlineData, functionCall and functionResponse
 * parts (each model part carrying the thought signature Gemini gave it),
 * `systemInstruction`, `tools.functionDeclarations`, `toolConfig` and
 * `generationConfig` (with `thinkingConfig`, ./thinking.ts). What Gemini cannot
 * take is refused with a 400 naming it; what only tunes another provider (cache
 * breakpoints, `prompt_cache_key`) is dropped and named. The rules are in
 * docs/providers/gemini.md.
 */
import { badRequest } from '../../core/errors';
import type { EncodeContext } from '../codec';
import { hasCacheMarkers } from '../cache';
import { fileKind } from '../files';
import { systemText } from '../system';
import { takesInput, toGeminiSchema } from './schema';
import { encodeThinkingConfig, modelThinks } from './thinking';
import type { ChatRequest, Message, Part, ToolChoice } from '../ir';
import { type Json, parseArguments, unsupported } from '../json';

/** Gemini takes at most five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

/**
 * Sent on the function calls of an assistant turn that carries no signature of
 * Gemini's own (history another provider, or the client, wrote): Gemini 3
 * refuses a replayed call without one, and Google documents this value for
 * history it did not produce (ai.google.dev/gemini-api/docs/thought-signatures).
 */
export const REPLAYED_SIGNATURE = 'skip_thought_signature_validator';

export function encodeGeminiRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.n !== 1) throw unsupported('n', 'gemini', 'above 1');
  const body: Json = { contents: encodeContents(request.messages) };
  // Gemini has no inline cache breakpoint (only `cachedContent` resources and implicit caching).
  if (hasCacheMarkers(request)) context.dropped.push('cache_control');
  if (request.promptCacheKey !== null) context.dropped.push('prompt_cache_key');
  const system = systemText(request);
  if (system !== null) body.systemInstruction = { parts: [{ text: system }] };
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((t, i) => ({
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          ...declaredInput(t.parameters, `tools[${i}].function.parameters`, context.model),
        })),
      },
    ];
    if (request.toolChoice) body.toolConfig = { functionCallingConfig: callingConfig(request.toolChoice) };
  }
  const config = generationConfig(request, context);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
}

/**
 * A function's input schema. Gemini 2.5 and later take the JSON Schema itself
 * (`parametersJsonSchema`: `allOf`, `$ref` and the rest, as agents' tools use them); older models
 * only the OpenAPI subset (`parameters`), converted by ./schema.ts, which refuses what it cannot
 * express. A tool taking no input declares none.
 */
function declaredInput(schema: Json, param: string, model: string): Json {
  if (!takesInput(schema)) return {};
  return modelThinks(model)
    ? { parametersJsonSchema: schema }
    : { parameters: toGeminiSchema(schema, param) };
}

function generationConfig(request: ChatRequest, context: EncodeContext): Json {
  const config: Json = {};
  const cap = request.maxTokens ?? (context.enforceCap ? context.outputCap : null);
  if (cap !== null) config.maxOutputTokens = cap;
  if (request.temperature !== null) config.temperature = request.temperature;
  if (request.topP !== null) config.topP = request.topP;
  if (request.topK !== null) config.topK = request.topK;
  if (request.stop.length > MAX_STOP_SEQUENCES)
    throw unsupported('stop', 'gemini', `with more than ${MAX_STOP_SEQUENCES} sequences`);
  if (request.stop.length > 0) config.stopSequences = request.stop;
  const format = request.responseFormat;
  if (format) config.responseMimeType = 'application/json';
  // Gemini 2.5 and later take the JSON Schema itself (`responseJsonSchema`); older models only
  // the OpenAPI subset (`responseSchema`), converted by ./schema.ts. Google documents the first as
  // current (ai.google.dev/gemini-api/docs/structured-output); the two are never sent together.
  if (format?.type === 'json_schema') {
    if (modelThinks(context.model)) config.responseJsonSchema = format.schema;
    else config.responseSchema = toGeminiSchema(format.schema, 'response_format.json_schema.schema');
  }
  const thinking = encodeThinkingConfig(request.reasoning, context);
  if (thinking) config.thinkingConfig = thinking;
  return config;
}

function callingConfig(choice: ToolChoice): Json {
  if (choice.type === 'auto') return { mode: 'AUTO' };
  if (choice.type === 'none') return { mode: 'NONE' };
  if (choice.type === 'required') return { mode: 'ANY' };
  return { mode: 'ANY', allowedFunctionNames: [choice.name] };
}

/**
 * Messages as contents; consecutive turns of one role become one content, and empty turns are
 * left out. A system turn mid-conversation is user text (Gemini has instructions only up front).
 */
function encodeContents(messages: readonly Message[]): Json[] {
  const contents: { role: string; parts: Json[] }[] = [];
  messages.forEach((m, i) => {
    const parts =
      m.role === 'assistant'
        ? modelParts(m, messages, i)
        : m.content.flatMap((p, j) => encodePart(p, messages, i, j));
    if (parts.length === 0) return;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });
  return contents;
}

/**
 * An assistant turn's parts. A signature Gemini issued travels on the part that follows its
 * reasoning part (that is where Gemini put it: ./response.ts), byte for byte; one with nothing
 * after it rides an empty text part, as Gemini streams it. Reasoning text is never sent back
 * (Gemini keeps its thoughts itself), nor reasoning another provider issued (Gemini cannot verify it).
 */
function modelParts(m: Message, messages: readonly Message[], i: number): Json[] {
  const signed = m.content.some(
    (p) => p.type === 'reasoning' && p.issuer === 'gemini' && p.signature !== null,
  );
  const out: Json[] = [];
  let pending: string | null = null;
  m.content.forEach((p, j) => {
    if (p.type === 'reasoning') {
      if (p.issuer === 'gemini' && p.signature !== null) {
        if (pending !== null) out.push({ text: '', thoughtSignature: pending });
        pending = p.signature;
      }
      return;
    }
    for (const part of encodePart(p, messages, i, j)) {
      if (pending !== null) {
        part.thoughtSignature = pending;
        pending = null;
      } else if (part.functionCall && !signed) part.thoughtSignature = REPLAYED_SIGNATURE;
      out.push(part);
    }
  });
  if (pending !== null) out.push({ text: '', thoughtSignature: pending });
  return out;
}

function encodePart(p: Part, messages: readonly Message[], i: number, j: number): Json[] {
  const param = `messages[${i}].content[${j}]`;
  switch (p.type) {
    case 'text':
      return p.text === '' ? [] : [{ text: p.text }];
    case 'reasoning':
    case 'redacted_reasoning':
      return [];
    case 'image':
      if (p.source.kind === 'url')
        throw unsupported(param, 'gemini', 'as an image URL (Gemini takes images inline, as base64)');
      return [{ inlineData: { mimeType: p.source.mediaType, data: p.source.data } }];
    case 'file':
      fileKind(p, param, 'gemini');
      return [{ inlineData: { mimeType: p.mediaType, data: p.data } }];
    case 'tool_call':
      return [{ functionCall: { name: p.name, args: parseArguments(p.arguments, `${param}.arguments`) } }];
    case 'tool_result': {
      if (p.content.some((c) => c.type === 'image'))
        throw unsupported(`${param}.content`, 'gemini', 'with an image in a tool result');
      const text = p.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
      const name = callName(messages, i, p.toolCallId, param);
      return [{ functionResponse: { name, response: p.isError ? { error: text } : { output: text } } }];
    }
  }
}

/** Gemini answers a call by the function's name: the name of the latest earlier call with this id. */
function callName(messages: readonly Message[], before: number, id: string, param: string): string {
  for (let i = before - 1; i >= 0; i--) {
    for (const part of messages[i]?.content ?? []) {
      if (part.type === 'tool_call' && part.id === id) return part.name;
    }
  }
  throw badRequest(
    `'${param}.tool_call_id' ('${id}') answers no earlier tool call; Gemini needs the called function's name.`,
    `${param}.tool_call_id`,
    'invalid_value',
  );
}
