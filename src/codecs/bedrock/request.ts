/**
 * The canonical request → a Bedrock Converse body (pure). The model id travels
 * in the URL, not the body. Reasoning (./reasoning.ts), structured output
 * (./output-format.ts) and cache breakpoints (`cachePoint` blocks) are
 * translated where the model takes them; what Converse cannot carry is refused
 * with a 400 naming the field, and what only tunes the provider is dropped and
 * named. The rules are in docs/providers/bedrock.md.
 */
import type { EncodeContext } from '../codec';
import { claudeSampling } from '../reasoning';
import { fileKind, fileName } from '../files';
import type {
  CacheMarker,
  ChatRequest,
  FilePart,
  ImagePart,
  Message,
  Part,
  TextPart,
  ToolChoice,
} from '../ir';
import { type Json, parseArguments, unsupported } from '../json';
import { claudeThinks, isClaude, takesCachePoints, takesHourCache } from './models';
import { encodeOutputFormat } from './output-format';
import { encodeReasoningFields, reasoningBlock } from './reasoning';

const TARGET = 'bedrock';

/** Converse's image formats, by media type. */
const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * A cache breakpoint as the block that follows what it marks (botocore CachePointBlock:
 * `type: 'default'` and an optional `ttl` of '5m' or '1h'). Null where the model takes none.
 */
type CachePoint = (marker: CacheMarker | undefined) => Json | null;

function cachePoints(context: EncodeContext): CachePoint {
  if (!takesCachePoints(context.model)) {
    let noted = false;
    return (marker) => {
      if (marker && !noted) {
        noted = true;
        context.dropped.push('cache_control');
      }
      return null;
    };
  }
  const hour = takesHourCache(context.model);
  return (marker) => {
    if (!marker) return null;
    // An hour is asked of models that keep one; the others cache for their 5 minutes.
    return { cachePoint: marker.ttl === '1h' && hour ? { type: 'default', ttl: '1h' } : { type: 'default' } };
  };
}

/** A block followed by its cache point, if it has one. */
const withPoint = (block: Json, marker: CacheMarker | undefined, point: CachePoint): Json[] => {
  const p = point(marker);
  return p ? [block, p] : [block];
};

export function encodeBedrockRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.n !== 1) throw unsupported('n', TARGET, 'above 1 (one answer per call)');
  // Converse cannot forbid parallel calls; the client still gets well-formed calls, perhaps several at once.
  if (request.parallelToolCalls === false && request.tools.length > 0)
    context.dropped.push('parallel_tool_calls');
  const point = cachePoints(context);
  const format = encodeOutputFormat(request, context.model);

  const body: Json = { messages: encodeMessages(request.messages, point) };
  // Converse refuses blank system blocks (NonEmptyString); each block keeps its own breakpoint.
  const system = request.system
    .filter((p) => p.text !== '')
    .flatMap((p) => withPoint({ text: p.text }, p.cache, point));
  if (system.length > 0) body.system = system;

  const thinkingAsked = request.reasoning?.mode === 'on' && claudeThinks(context.model);
  // Extended thinking needs a cap above its budget: the reserved one is sent when the client set none.
  const cap = request.maxTokens ?? (context.enforceCap || thinkingAsked ? context.outputCap : null);
  const forced =
    format.kind === 'tool' || request.toolChoice?.type === 'tool' || request.toolChoice?.type === 'required';
  const reasoning = encodeReasoningFields(request, cap ?? context.outputCap, forced, context);
  // Beside Claude's thinking, the sampling settings it refuses are dropped and named.
  const sampling = isClaude(context.model)
    ? claudeSampling(request, reasoning.thinking !== undefined, context.dropped)
    : { temperature: request.temperature, topP: request.topP, topK: request.topK };

  const inference: Json = {};
  if (cap !== null) inference.maxTokens = cap;
  if (sampling.temperature !== null) inference.temperature = sampling.temperature;
  if (sampling.topP !== null) inference.topP = sampling.topP;
  if (request.stop.length > 0) inference.stopSequences = request.stop;
  if (Object.keys(inference).length > 0) body.inferenceConfig = inference;

  const additional: Json = {};
  if (sampling.topK !== null) {
    if (!isClaude(context.model)) throw unsupported('top_k', TARGET, 'for this model family');
    additional.top_k = sampling.topK;
  }
  Object.assign(additional, reasoning);
  if (Object.keys(additional).length > 0) body.additionalModelRequestFields = additional;

  if (format.kind === 'native') body.outputConfig = format.outputConfig;
  const toolConfig = format.kind === 'tool' ? format.tool : encodeTools(request, point);
  if (toolConfig) body.toolConfig = toolConfig;
  if (request.promptCacheKey !== null) context.dropped.push('prompt_cache_key');
  return body;
}

/**
 * Converse has no "none" tool choice. With no tool calls or results in the
 * conversation the tools are simply not sent (the model cannot call what it
 * does not see); with them, Converse requires toolConfig, and sending it would
 * let the model call a tool, so the request is refused.
 */
function encodeTools(request: ChatRequest, point: CachePoint): Json | null {
  if (request.tools.length === 0) return null;
  if (request.toolChoice?.type === 'none') {
    if (hasToolHistory(request.messages))
      throw unsupported('tool_choice', TARGET, "as 'none' in a conversation with tool calls");
    return null;
  }
  const tools = request.tools.flatMap((t) =>
    withPoint(
      {
        toolSpec: {
          name: t.name,
          ...(t.description ? { description: t.description } : {}),
          inputSchema: { json: t.parameters },
        },
      },
      t.cache,
      point,
    ),
  );
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

/**
 * Converse requires alternating roles; consecutive turns of one role are joined, as Anthropic's
 * API does. A system turn mid-conversation is user text (Converse has instructions only up
 * front). In the joined turns, reasoning leads an assistant turn and tool results a user turn,
 * where Claude requires them.
 */
function encodeMessages(messages: readonly Message[], point: CachePoint): Json[] {
  const out: { role: string; content: Json[] }[] = [];
  messages.forEach((m, i) => {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const content = m.content.flatMap((p, j) => encodePart(p, `messages[${i}].content[${j}]`, point));
    const last = out.at(-1);
    if (last && last.role === role) last.content.push(...content);
    else out.push({ role, content });
  });
  for (const m of out) {
    const lead = m.role === 'assistant' ? 'reasoningContent' : 'toolResult';
    m.content.sort((a, b) => Number(lead in b) - Number(lead in a));
  }
  return out;
}

function encodePart(part: Part, param: string, point: CachePoint): Json[] {
  switch (part.type) {
    case 'text':
      // Converse refuses blank text blocks; an empty one carries nothing.
      return part.text === '' ? [] : withPoint({ text: part.text }, part.cache, point);
    case 'reasoning':
    case 'redacted_reasoning':
      return reasoningBlock(part);
    case 'image':
      return withPoint(encodeImage(part, param), part.cache, point);
    case 'file':
      return withPoint(encodeDocument(part, param), part.cache, point);
    case 'tool_call':
      return withPoint(
        {
          toolUse: {
            toolUseId: part.id,
            name: part.name,
            input: parseArguments(part.arguments, `${param}.arguments`),
          },
        },
        part.cache,
        point,
      );
    case 'tool_result':
      return withPoint(
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
        part.cache,
        point,
      );
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

/**
 * A file part as a Converse document block (DocumentBlock: `format`, `name`, `source.bytes`). The
 * name may hold only alphanumerics, single spaces, hyphens, parentheses and square brackets: the
 * file name without its extension, anything else a space.
 */
function encodeDocument(part: FilePart, param: string): Json {
  const kind = fileKind(part, param, TARGET);
  const name = fileName(part, kind)
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9\-()[\] ]+/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
  return {
    document: {
      format: kind === 'pdf' ? 'pdf' : 'txt',
      name: name || 'document',
      source: { bytes: part.data },
    },
  };
}
