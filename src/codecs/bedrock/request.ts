/**
 * The canonical request → a Bedrock Converse body (pure). The model id travels
 * in the URL, not the body. What Converse cannot carry is refused with a 400
 * naming the field; the few fields dropped are listed in docs/providers/bedrock.md.
 */
import type { EncodeContext } from '../codec';
import { systemText } from '../system';
import type { ChatRequest, ImagePart, Message, Part, TextPart, ToolChoice } from '../ir';
import { type Json, parseArguments, unsupported } from '../json';

const TARGET = 'bedrock';

/** Converse's image formats, by media type. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/** Model families that take `top_k` through additionalModelRequestFields (Anthropic's name for it). */
const TOP_K_FAMILIES = /^(?:[a-z]{2,4}\.)?anthropic\./;

export function encodeBedrockRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.n !== 1) throw unsupported('n', TARGET, 'above 1 (one answer per call)');
  if (request.responseFormat !== null)
    throw unsupported('response_format', TARGET, '(Converse has no JSON mode)');
  if (request.parallelToolCalls === false && request.tools.length > 0)
    throw unsupported('parallel_tool_calls', TARGET, 'set to false');

  const body: Json = { messages: encodeMessages(request.messages) };
  const system = systemText(request);
  if (system !== null) body.system = [{ text: system }];

  const inference: Json = {};
  const cap = request.maxTokens ?? (context.enforceCap ? context.outputCap : null);
  if (cap !== null) inference.maxTokens = cap;
  if (request.temperature !== null) inference.temperature = request.temperature;
  if (request.topP !== null) inference.topP = request.topP;
  if (request.stop.length > 0) inference.stopSequences = request.stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;

  if (request.topK !== null) {
    if (!TOP_K_FAMILIES.test(context.model)) throw unsupported('top_k', TARGET, 'for this model family');
    body.additionalModelRequestFields = { top_k: request.topK };
  }

  const toolConfig = encodeTools(request);
  if (toolConfig) body.toolConfig = toolConfig;
  return body;
}

/**
 * Converse has no "none" tool choice. With no tool calls or results in the
 * conversation the tools are simply not sent (the model cannot call what it
 * does not see); with them, Converse requires toolConfig, and sending it would
 * let the model call a tool, so the request is refused.
 */
function encodeTools(request: ChatRequest): Json | null {
  if (request.tools.length === 0) return null;
  if (request.toolChoice?.type === 'none') {
    if (hasToolHistory(request.messages))
      throw unsupported('tool_choice', TARGET, "as 'none' in a conversation with tool calls");
    return null;
  }
  const tools = request.tools.map((t) => ({
    toolSpec: {
      name: t.name,
      ...(t.description ? { description: t.description } : {}),
      inputSchema: { json: t.parameters },
    },
  }));
  const choice = encodeToolChoice(request.toolChoice);
  return choice ? { tools, toolChoice: choice } : { tools };
}

function encodeToolChoice(choice: ToolChoice | null): Json | null {
  switch (choice?.type) {
    case 'auto':
      return { auto: {} };
    case 'required':
      return { any: {} };
    case 'tool':
      return { tool: { name: choice.name } };
    default:
      return null;
  }
}

function hasToolHistory(messages: readonly Message[]): boolean {
  return messages.some((m) => m.content.some((p) => p.type === 'tool_call' || p.type === 'tool_result'));
}

/** Converse requires alternating roles; consecutive turns of one role are joined, as Anthropic's API does. */
function encodeMessages(messages: readonly Message[]): Json[] {
  const out: { role: string; content: Json[] }[] = [];
  messages.forEach((m, i) => {
    const content = m.content.flatMap((p, j) => encodePart(p, `messages[${i}].content[${j}]`));
    const last = out.at(-1);
    if (last && last.role === m.role) last.content.push(...content);
    else out.push({ role: m.role, content });
  });
  return out;
}

function encodePart(part: Part, param: string): Json[] {
  switch (part.type) {
    case 'text':
      // Converse refuses blank text blocks; an empty one carries nothing.
      return part.text === '' ? [] : [{ text: part.text }];
    case 'reasoning':
    case 'redacted_reasoning':
      return [];
    case 'image':
      return [encodeImage(part, param)];
    case 'tool_call':
      return [
        {
          toolUse: {
            toolUseId: part.id,
            name: part.name,
            input: parseArguments(part.arguments, `${param}.arguments`),
          },
        },
      ];
    case 'tool_result':
      return [
        {
          toolResult: {
            toolUseId: part.toolCallId,
            content: part.content.map((c, k) =>
              c.type === 'text' ? textBlock(c) : encodeImage(c, `${param}.content[${k}]`),
            ),
            // `status` is honoured by Anthropic models only; sent only when it says something.
            ...(part.isError ? { status: 'error' } : {}),
          },
        },
      ];
  }
}

const textBlock = (part: TextPart): Json => ({ text: part.text });

function encodeImage(part: ImagePart, param: string): Json {
  const source = part.source;
  if (source.kind === 'url')
    throw unsupported(
      param,
      TARGET,
      'as an image URL (Converse takes image bytes only; send a base64 data URL)',
    );
  const format = IMAGE_FORMATS[source.mediaType.toLowerCase()];
  if (!format) throw unsupported(param, TARGET, `as an image of type '${source.mediaType}'`);
  return { image: { format, source: { bytes: source.data } } };
}
