/**
 * The canonical request → a Gemini `generateContent` body (pure): contents of
 * roles user/model with text, inlineData, functionCall and functionResponse
 * parts, `systemInstruction`, `tools.functionDeclarations`, `toolConfig` and
 * `generationConfig`. What Gemini cannot take is refused with a 400 naming it;
 * the rules are in docs/providers/gemini.md.
 */
import { badRequest } from '../../core/errors';
import type { EncodeContext } from '../codec';
import { systemText } from '../system';
import { toGeminiParameters, toGeminiSchema } from './schema';
import type { ChatRequest, Message, Part, ToolChoice } from '../ir';
import { type Json, parseArguments, unsupported } from '../json';

/** Gemini takes at most five stop sequences. */
const MAX_STOP_SEQUENCES = 5;

/**
 * Sent with every function call we replay: the canonical exchange has nowhere
 * to keep Gemini's own thought signatures, and Gemini 3 refuses a replayed call
 * without one. Google documents this value for history it did not produce.
 */
export const REPLAYED_SIGNATURE = 'skip_thought_signature_validator';

export function encodeGeminiRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.n !== 1) throw unsupported('n', 'gemini', 'above 1');
  const body: Json = { contents: encodeContents(request.messages) };
  const system = systemText(request);
  if (system !== null) body.systemInstruction = { parts: [{ text: system }] };
  if (request.tools.length > 0) {
    body.tools = [
      {
        functionDeclarations: request.tools.map((t, i) => {
          const parameters = toGeminiParameters(t.parameters, `tools[${i}].function.parameters`);
          return {
            name: t.name,
            ...(t.description ? { description: t.description } : {}),
            ...(parameters ? { parameters } : {}),
          };
        }),
      },
    ];
    if (request.toolChoice) body.toolConfig = { functionCallingConfig: callingConfig(request.toolChoice) };
  }
  const config = generationConfig(request, context);
  if (Object.keys(config).length > 0) body.generationConfig = config;
  return body;
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
  if (format?.type === 'json_schema')
    config.responseSchema = toGeminiSchema(format.schema, 'response_format.json_schema.schema');
  return config;
}

function callingConfig(choice: ToolChoice): Json {
  if (choice.type === 'auto') return { mode: 'AUTO' };
  if (choice.type === 'none') return { mode: 'NONE' };
  if (choice.type === 'required') return { mode: 'ANY' };
  return { mode: 'ANY', allowedFunctionNames: [choice.name] };
}

/** Messages as contents; consecutive turns of one role become one content, and empty turns are left out. */
function encodeContents(messages: readonly Message[]): Json[] {
  const contents: { role: string; parts: Json[] }[] = [];
  messages.forEach((m, i) => {
    const parts = m.content.flatMap((p, j) => encodePart(p, messages, i, j));
    if (parts.length === 0) return;
    const role = m.role === 'assistant' ? 'model' : 'user';
    const last = contents.at(-1);
    if (last?.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  });
  return contents;
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
    case 'tool_call':
      return [
        {
          functionCall: { name: p.name, args: parseArguments(p.arguments, `${param}.arguments`) },
          thoughtSignature: REPLAYED_SIGNATURE,
        },
      ];
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
