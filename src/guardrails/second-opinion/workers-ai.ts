/**
 * The second opinion on Workers AI: Llama Guard 3 (`@cf/meta/llama-guard-3-8b`)
 * through the `AI` binding. What it relies on, from the model's page
 * (developers.cloudflare.com/workers-ai/models/llama-guard-3-8b) and the
 * binding's types:
 * - input `{ messages: {role: 'user'|'assistant', content: string}[],
 *   max_tokens? (integer, default 256), temperature? (0–5, default 0.6),
 *   response_format? {type: 'json_object'} }`; roles must alternate, starting
 *   with the user (./conversation.ts builds such a list); context window
 *   131,072 tokens; a message's content at most 131,072 characters;
 * - output `{ response, usage }`, `response` either `{safe, categories}` (JSON
 *   mode, asked for here) or the model's text (./hazards.ts reads both);
 * - failures are thrown as errors whose message starts with a four-digit code
 *   (developers.cloudflare.com/workers-ai/platform/errors, e.g. 3040 out of
 *   capacity, 3036 daily allocation used up, 5021 context window exceeded).
 * Temperature 0 makes the verdict repeatable; 128 output tokens hold the
 * longest JSON verdict (all fourteen codes). Errors keep only the code: the
 * service's message may quote the input.
 */
import { DEFAULT_BUDGET_CHARS, guardConversation, MAX_BUDGET_CHARS, MIN_BUDGET_CHARS } from './conversation';
import { parseVerdict } from './hazards';
import { type SecondOpinion, SecondOpinionUnavailable } from './port';

export const LLAMA_GUARD_MODEL = '@cf/meta/llama-guard-3-8b';
const MAX_OUTPUT_TOKENS = 128;

/** The slice of the `Ai` binding this adapter uses. */
export interface GuardRunner {
  run(model: string, inputs: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<unknown>;
}

export interface WorkersAiGuardOptions {
  /** The bound on the conversation sent, in UTF-16 code units (see ./conversation.ts). */
  readonly budgetChars?: number;
}

function serviceCode(err: unknown): number | null {
  const text = err instanceof Error ? err.message : String(err);
  const match = /(?:^|\s)(\d{4}):/.exec(text);
  return match ? Number(match[1]) : null;
}

/** Without the binding (`ai` undefined, as in local dev) every check fails as `binding_missing`. */
export function workersAiSecondOpinion(
  ai: GuardRunner | undefined,
  options: WorkersAiGuardOptions = {},
): SecondOpinion {
  const budget = options.budgetChars ?? DEFAULT_BUDGET_CHARS;
  if (!Number.isInteger(budget) || budget < MIN_BUDGET_CHARS || budget > MAX_BUDGET_CHARS)
    throw new RangeError(`budgetChars must be an integer from ${MIN_BUDGET_CHARS} to ${MAX_BUDGET_CHARS}`);
  return {
    id: `workers-ai:${LLAMA_GUARD_MODEL}`,
    async check(conversation, signal) {
      if (!ai) throw new SecondOpinionUnavailable('binding_missing');
      const messages = guardConversation(conversation, budget);
      // Nothing a user said: nothing to judge, and the model refuses an empty list.
      if (messages.length === 0) return { safe: true, categories: [] };
      const inputs = {
        messages,
        max_tokens: MAX_OUTPUT_TOKENS,
        temperature: 0,
        response_format: { type: 'json_object' },
      };
      let output: unknown;
      try {
        output = await ai.run(LLAMA_GUARD_MODEL, inputs, { signal });
      } catch (err) {
        if (signal?.aborted)
          throw signal.reason instanceof SecondOpinionUnavailable
            ? signal.reason
            : new SecondOpinionUnavailable('aborted');
        throw new SecondOpinionUnavailable('error', serviceCode(err));
      }
      const verdict = parseVerdict(output);
      if (!verdict) throw new SecondOpinionUnavailable('unparseable');
      return verdict;
    },
  };
}
