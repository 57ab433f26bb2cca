/**
 * What the span-finding guardrails (PII, secrets, deny-lists) report: a typed
 * half-open range [start, end) of UTF-16 offsets into the scanned text. Never
 * the matched value itself: verdicts, logs and errors carry kinds and counts.
 */

/** Personal data the `pii` guardrail finds. */
export const PII_KINDS = ['email', 'phone', 'card', 'iban', 'ssn', 'ip'] as const;
/** Credentials the `secrets` guardrail finds. */
export const SECRET_KINDS = [
  'openai_key',
  'anthropic_key',
  'aws_access_key',
  'github_token',
  'slack_token',
  'jwt',
  'private_key',
  'bearer_token',
] as const;
export type PiiKind = (typeof PII_KINDS)[number];
export type SecretKind = (typeof SECRET_KINDS)[number];
/** `deny` is a deny-list term or pattern. */
export type FindingKind = PiiKind | SecretKind | 'deny';

export interface Finding {
  readonly kind: FindingKind;
  readonly start: number;
  readonly end: number;
}

/**
 * A span finder over one text: sorted by start, non-overlapping. `maxLength`
 * bounds the longest span it can report, which is how far a streaming scan must
 * look ahead so that a value split across chunks is still found.
 */
export interface SpanFinder {
  find(text: string): Finding[];
  readonly maxLength: number;
}
