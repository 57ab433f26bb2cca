/**
 * May this request be answered by the semantic cache, and with what (pure)?
 * The request splits into two parts: `text`, compared by meaning, and
 * `paramsHash`, which must match exactly. Anything that is not in `text` is in
 * `paramsHash`, so a difference outside the compared text can never be
 * papered over by a high similarity score.
 *
 * Decisions, each chosen for a demanding production user:
 * - Off unless the key's cache settings say `semantic: true`; the chat,
 *   messages and responses endpoints only (embeddings are deterministic: the
 *   exact cache serves them). A Responses `input` string is one user turn.
 * - `text` is the LATEST USER MESSAGE's text only. Earlier turns (user and
 *   assistant), roles, images, tool calls and results, the system prompt
 *   (system/developer messages, or Anthropic's `system`) and every parameter
 *   go into `paramsHash` verbatim. Embedding the whole conversation would let
 *   a long shared first exchange drown the one line that differs ("make it
 *   shorter" vs "make it longer" after the same poem); with history exact,
 *   follow-ups hit only after the same history, which is the case whenever
 *   the earlier answers were themselves deterministic or cached.
 * - `paramsHash` = SHA-256 of the canonical JSON (sorted keys, no nulls) of
 *   the endpoint and the body as the exact cache normalises it (src/cache/key.ts:
 *   `stream`, `stream_options`, `user`, `metadata`, `store`, `service_tier`
 *   dropped), with the latest user text blanked out. Different models,
 *   parameters, tools or system prompts can never match.
 * - Tools: a request that declares tools (`tools`, legacy `functions`) or
 *   carries tool traffic in its messages is an agent turn: skipped unless
 *   `semantic_tools`.
 * - Temperature: skipped when `temperature > 0` AND when it is absent, since
 *   both OpenAI and Anthropic then sample at temperature 1: a caller who did
 *   not ask for determinism gets none from the cache. Only an explicit
 *   `temperature: 0` is eligible, unless `semantic_temperature` opts in.
 * - Conversations longer than `semantic_max_turns` messages (system and
 *   developer messages not counted; default 4) are skipped: agents repeat
 *   near-identical turns whose answers must not be replayed.
 * - The compared text is capped at MAX_SEMANTIC_TEXT_CHARS (~512 tokens, the
 *   input window of the bge models): beyond it an embedder would silently see
 *   only a prefix, and two texts differing in their tail would match.
 */
import type { ProxyRequest } from '../core/request';
import type { CacheSettings } from '../core/settings';
import { sha256HexSync } from '../util/sha256-sync';
import { canonicalJson, normalisedBody } from './key';

/** Cosine similarity needed for a hit when the key sets no threshold. */
export const DEFAULT_SEMANTIC_THRESHOLD = 0.95;
/** Longest conversation, in messages (system/developer not counted), when the key sets none. */
export const DEFAULT_SEMANTIC_MAX_TURNS = 4;
export const MAX_SEMANTIC_TEXT_CHARS = 2000;

export type SemanticIneligibility =
  | 'disabled'
  | 'tools'
  | 'temperature'
  | 'too_many_turns'
  | 'endpoint'
  | 'no_text'
  | 'too_long';

export type SemanticEligibility =
  | { readonly eligible: true; readonly text: string; readonly paramsHash: string }
  | { readonly eligible: false; readonly reason: SemanticIneligibility };

type Message = Record<string, unknown> & { role: string };

const INSTRUCTION_ROLES = new Set(['system', 'developer']);
const TOOL_ROLES = new Set(['tool', 'function']);
const TOOL_BLOCKS = new Set([
  'tool_use',
  'tool_result',
  'server_tool_use',
  'mcp_tool_use',
  'mcp_tool_result',
]);
/** Text parts: Chat's and Messages' `text`, the Responses API's `input_text`. */
const TEXT_PARTS = new Set(['text', 'input_text']);
/** Stands where the compared text was, so its position is part of the hash but not its words. */
const TEXT_SLOT = '\u0000semantic-text';

export function semanticThreshold(settings: CacheSettings): number {
  return settings.threshold ?? DEFAULT_SEMANTIC_THRESHOLD;
}

function no(reason: SemanticIneligibility): SemanticEligibility {
  return { eligible: false, reason };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function carriesTools(body: Record<string, unknown>, messages: readonly Message[]): boolean {
  if (Array.isArray(body.tools) && body.tools.length > 0) return true;
  if (Array.isArray(body.functions) && body.functions.length > 0) return true;
  return messages.some(
    (m) =>
      TOOL_ROLES.has(m.role) ||
      (Array.isArray(m.tool_calls) && m.tool_calls.length > 0) ||
      m.function_call != null ||
      (Array.isArray(m.content) &&
        m.content.some(
          (part) => isRecord(part) && typeof part.type === 'string' && TOOL_BLOCKS.has(part.type),
        )),
  );
}

/** The message's text and a copy of it with that text replaced by TEXT_SLOT. */
function splitText(message: Message): { text: string; skeleton: Message } {
  const content = message.content;
  if (typeof content === 'string') return { text: content, skeleton: { ...message, content: TEXT_SLOT } };
  if (!Array.isArray(content)) return { text: '', skeleton: message };
  const texts: string[] = [];
  const parts = content.map((part) => {
    if (isRecord(part) && TEXT_PARTS.has(part.type as string) && typeof part.text === 'string') {
      texts.push(part.text);
      return { ...part, text: TEXT_SLOT };
    }
    return part;
  });
  return { text: texts.join('\n'), skeleton: { ...message, content: parts } };
}

/** The turns of a body: a list as it is, the Responses API's string `input` as one user turn. */
function conversation(turns: unknown): unknown[] {
  if (typeof turns === 'string') return [{ role: 'user', content: turns }];
  return Array.isArray(turns) ? turns : [];
}

export function semanticEligibility(request: ProxyRequest, settings: CacheSettings): SemanticEligibility {
  if (settings.semantic !== true) return no('disabled');
  if (request.endpoint === 'embeddings') return no('endpoint');
  const body = request.body;
  const turnsField = request.endpoint === 'responses' ? 'input' : 'messages';
  const items = conversation(body[turnsField]);
  // A Responses item without a role is a tool call, its output or reasoning: agent traffic.
  const messages = items.filter((m): m is Message => isRecord(m) && typeof m.role === 'string');
  if (messages.length < items.length && settings.semantic_tools !== true) return no('tools');
  if (settings.semantic_tools !== true && carriesTools(body, messages)) return no('tools');
  const temperature = typeof body.temperature === 'number' ? body.temperature : null;
  if (settings.semantic_temperature !== true && (temperature === null || temperature > 0))
    return no('temperature');
  const turns = messages.filter((m) => !INSTRUCTION_ROLES.has(m.role)).length;
  if (turns > (settings.semantic_max_turns ?? DEFAULT_SEMANTIC_MAX_TURNS)) return no('too_many_turns');

  let last = -1;
  for (let i = messages.length - 1; i >= 0 && last < 0; i--) if (messages[i]?.role === 'user') last = i;
  if (last < 0) return no('no_text');
  const { text, skeleton } = splitText(messages[last] as Message);
  if (text.trim() === '') return no('no_text');
  if (text.length > MAX_SEMANTIC_TEXT_CHARS) return no('too_long');

  const shape = messages.map((m, i) => (i === last ? skeleton : m));
  const paramsHash = sha256HexSync(
    canonicalJson({ v: 1, e: request.endpoint, b: normalisedBody({ ...body, [turnsField]: shape }) }),
  );
  return { eligible: true, text, paramsHash };
}
