/**
 * Responses API requests ⇄ the canonical request (pure): the top-level fields. Decoding reads a
 * client's body, refuses what has no canonical form and names what it drops; encoding writes the
 * body for an OpenAI Responses provider, always stateless (`store: false`, reasoning carried as
 * encrypted content). The input items are ./input.ts's, the tools ./tools.ts's. The rules are in
 * docs/translation.md; both directions sit together so each rule and its inverse read side by side.
 */
import { badRequest } from '../../core/errors';
import type { EncodeContext } from '../codec';
import { hasCacheMarkers } from '../cache';
import type { ChatRequest, Reasoning, ResponseFormat } from '../ir';
import { type Json, num, obj, str, unsupported } from '../json';
import { encodeReasoningEffort } from '../openai/reasoning';
import { isEffort } from '../reasoning';
import { systemText } from '../system';
import { decodeInput, encodeInput } from './input';
import { decodeToolChoice, decodeTools, encodeToolChoice, encodeTools } from './tools';

/** Fields read into the canonical request. */
const READ = new Set([
  'model',
  'input',
  'instructions',
  'max_output_tokens',
  'temperature',
  'top_p',
  'tools',
  'tool_choice',
  'parallel_tool_calls',
  'text',
  'reasoning',
  'user',
  'safety_identifier',
  'prompt_cache_key',
  'stream',
]);
/**
 * Read by the gateway itself, not carried in the canonical request: storage (`store`, `metadata`),
 * what the answer includes (`include`), and the stored conversation (`previous_response_id`, already
 * expanded into `input` when the body reaches the codec).
 */
const GATEWAY = new Set(['store', 'metadata', 'include', 'previous_response_id']);
/**
 * Dropped (named in x-edgeway-dropped): OpenAI-side caching, routing, truncation and compaction
 * hints, log probabilities, the tool-call budget, stream options, and Codex's `client_metadata`
 * (not in OpenAI's published API: its own telemetry).
 */
const DROPPED = new Set([
  'prompt_cache_retention',
  'prompt_cache_options',
  'service_tier',
  'truncation',
  'top_logprobs',
  'max_tool_calls',
  'stream_options',
  'context_management',
  'client_metadata',
]);
/** Refused unless at their no-op value: they need OpenAI's own state or services. */
const NEUTRAL: Readonly<Record<string, (v: unknown) => boolean>> = {
  background: (v) => v === false || v === null,
  conversation: (v) => v === null,
  prompt: (v) => v === null,
  moderation: (v) => v === null,
};

export function decodeResponsesRequest(body: Json): ChatRequest {
  const dropped: string[] = [];
  for (const key of Object.keys(body)) {
    if (READ.has(key) || GATEWAY.has(key)) continue;
    if (DROPPED.has(key)) {
      if (body[key] !== null && body[key] !== undefined) dropped.push(key);
    } else if (!NEUTRAL[key]?.(body[key])) {
      if (key === 'background' || key === 'conversation')
        throw badRequest(
          `'${key}' needs OpenAI's own storage, which the gateway does not reach through this model; remove it or use previous_response_id.`,
          key,
          'unsupported_value',
        );
      throw unsupported(key, null);
    }
  }
  const instructions = str(body.instructions);
  const { system, messages } = decodeInput(body.input, dropped);
  const tools = decodeTools(body.tools, dropped);
  const text = obj(body.text);
  if (text?.verbosity !== undefined && text.verbosity !== null) dropped.push('text.verbosity');
  const user = str(body.user);
  if (user !== null && str(body.safety_identifier) !== null) dropped.push('safety_identifier');
  const choice = decodeToolChoice(body.tool_choice, dropped);
  // With no tool the model can call (every one was a hosted tool), there is no choice to make.
  const choiceless = tools.length === 0 && choice !== null && choice.type !== 'none';
  if (choiceless && choice.type !== 'auto') dropped.push('tool_choice');
  return {
    system: [...(instructions ? [{ type: 'text' as const, text: instructions }] : []), ...system],
    messages,
    maxTokens: num(body.max_output_tokens),
    temperature: num(body.temperature),
    topP: num(body.top_p),
    topK: null,
    stop: [],
    tools,
    toolChoice: choiceless ? null : choice,
    parallelToolCalls: body.parallel_tool_calls === false && tools.length > 0 ? false : null,
    responseFormat: decodeTextFormat(text?.format),
    n: 1,
    stream: body.stream === true,
    user: user ?? str(body.safety_identifier),
    reasoning: decodeReasoning(body.reasoning),
    promptCacheKey: str(body.prompt_cache_key),
    dropped,
  };
}

function decodeReasoning(v: unknown): Reasoning | null {
  const r = obj(v);
  if (!r) return null;
  const effort = r.effort ?? null;
  if (effort !== null && !isEffort(effort))
    throw unsupported('reasoning.effort', null, `'${String(effort)}'`);
  const summary = r.summary ?? r.generate_summary ?? null;
  const display = summary === null ? null : 'summarized';
  if (effort === null)
    return display === null ? null : { mode: 'default', effort: null, budgetTokens: null, display };
  // An effort is a request to reason (or, at 'none', not to), as Chat Completions' reasoning_effort is.
  return { mode: effort === 'none' ? 'off' : 'on', effort, budgetTokens: null, display };
}

function decodeTextFormat(v: unknown): ResponseFormat | null {
  const f = obj(v);
  if (!f || f.type === 'text') return null;
  if (f.type === 'json_object') return { type: 'json_object' };
  if (f.type === 'json_schema')
    return {
      type: 'json_schema',
      name: str(f.name) ?? 'response',
      schema: obj(f.schema) ?? {},
      strict: f.strict === true,
    };
  throw unsupported('text.format.type', null, `'${String(f.type)}'`);
}

/** OpenAI refuses an output cap under 16 tokens. */
const MIN_OUTPUT_CAP = 16;

/** The canonical request as a body for an OpenAI Responses provider, called statelessly. */
export function encodeResponsesRequest(request: ChatRequest, context: EncodeContext): Json {
  if (request.topK !== null) throw unsupported('top_k', 'responses');
  if (request.stop.length > 0) throw unsupported('stop', 'responses');
  if (request.n !== 1) throw unsupported('n', 'responses');
  // OpenAI caches prompt prefixes by itself; explicit breakpoints exist only on its newest models.
  if (hasCacheMarkers(request)) context.dropped.push('cache_control');
  const body: Json = { model: context.model };
  const instructions = systemText(request);
  if (instructions !== null) body.instructions = instructions;
  body.input = encodeInput(request.messages);
  const cap = request.maxTokens ?? (context.enforceCap ? Math.max(MIN_OUTPUT_CAP, context.outputCap) : null);
  if (cap !== null) body.max_output_tokens = cap;
  if (request.temperature !== null) body.temperature = request.temperature;
  if (request.topP !== null) body.top_p = request.topP;
  if (request.tools.length > 0) body.tools = encodeTools(request.tools);
  const choice = encodeToolChoice(request.toolChoice);
  if (choice !== null) body.tool_choice = choice;
  if (request.parallelToolCalls === false && request.tools.length > 0) body.parallel_tool_calls = false;
  const format = request.responseFormat;
  if (format?.type === 'json_object') body.text = { format: { type: 'json_object' } };
  if (format?.type === 'json_schema')
    body.text = {
      format: { type: 'json_schema', name: format.name, schema: format.schema, strict: format.strict },
    };
  const effort = encodeReasoningEffort(request, context.model, context.dropped);
  if (effort !== null) {
    const summary = request.reasoning?.display === 'summarized' ? { summary: 'auto' } : {};
    body.reasoning = { effort, ...summary };
    // Called statelessly, the provider gives back its reasoning only encrypted, to be sent back next turn.
    body.include = ['reasoning.encrypted_content'];
  }
  // `user` is deprecated on the Responses API; its abuse-monitoring role is `safety_identifier`'s.
  if (request.user !== null) body.safety_identifier = request.user;
  if (request.promptCacheKey !== null) {
    if (context.providerId === 'openai') body.prompt_cache_key = request.promptCacheKey;
    else context.dropped.push('prompt_cache_key');
  }
  body.store = false;
  if (request.stream) body.stream = true;
  return body;
}
