/**
 * Removes credentials from a provider's error text before it reaches a client
 * or a log (pure). Providers echo keys in their messages (OpenAI: "Incorrect
 * API key provided: sk-…"; proxies in front of them echo whole URLs with
 * `?key=`), whatever the status, so every provider message passes through here:
 * the keys this gateway holds are removed exactly, anything shaped like a
 * credential is removed by pattern, and the result is capped in length.
 * Over-redacting an id that merely looks like a secret is the accepted cost.
 * Every pattern is linear (no lookahead over a run), so a hostile 16 KiB body
 * costs microseconds.
 */

/** The longest provider message relayed; the rest is cut with a marker. */
export const MAX_PROVIDER_MESSAGE_CHARS = 1_000;

export const REDACTED = '[redacted]';

/** Credential shapes, each replaced whole (or, with a captured prefix, after the prefix). */
const PATTERNS: readonly RegExp[] = [
  // Authorization values: "Bearer <token>", "Basic <token>".
  /(\b(?:Bearer|Basic)\s+)[\w\-.~+/=*]+/gi,
  // Provider key formats: OpenAI/Anthropic/DeepSeek (sk-, sk-ant-, sk-proj-), Groq, GitHub, Hugging Face,
  // Replicate, Slack, Stripe-style, Google API keys, AWS access key ids.
  /\b(?:sk|pk|rk)-[\w\-*]{8,}/g,
  /\b(?:sk|pk|rk|gsk|ghp|gho|ghu|ghs|github_pat|hf|r8|xox[abprs])_[\w\-*]{8,}/g,
  /\bAIza[\w-]{20,}/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  // JSON Web Tokens.
  /\beyJ[\w-]+\.[\w-]+\.[\w-]*/g,
  // key=value pairs in URLs, headers and JSON: ?key=…, api_key: "…", "x-api-key": "…".
  /((?:api[_-]?key|access[_-]?token|auth[_-]?token|token|secret|password|passwd|signature|sig|key)["']?\s*[=:]\s*["']?)[^\s&"',;<>]+/gi,
  // Long hex runs (≥ 32).
  /\b[0-9a-fA-F]{32,}\b/g,
];

/** Long base64/base64url runs (≥ 32) that mix letters and digits; a run of one letter is padding, not a key. */
const LONG_RUN = /[A-Za-z0-9+/_-]{32,}={0,2}/g;
const mixed = (run: string) => /\d/.test(run) && /[A-Za-z]/.test(run);

/**
 * The message with every known secret and credential-shaped run replaced by
 * `[redacted]`, capped at `maxChars`. `secrets` are the keys the gateway holds
 * for this provider; they are removed wherever they appear, whatever their shape.
 */
export function scrubSecrets(
  text: string,
  secrets: readonly string[] = [],
  maxChars = MAX_PROVIDER_MESSAGE_CHARS,
): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join(REDACTED);
  }
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, prefix?: unknown) =>
      typeof prefix === 'string' && prefix.length < match.length ? `${prefix}${REDACTED}` : REDACTED,
    );
  }
  out = out.replace(LONG_RUN, (run) => (mixed(run) ? REDACTED : run));
  return out.length > maxChars ? `${out.slice(0, maxChars)}… [truncated]` : out;
}
