/**
 * Typed placeholders for one request: the first e-mail address replaced
 * becomes `[EMAIL_1]`, the second different one `[EMAIL_2]`, a card `[CARD_1]`;
 * the same value gets the same label again. `restore` puts the values back
 * into a text (an answer to the same request), except deny-list matches
 * (`[DENIED_n]`), which are never restored: the tenant refused them. Values
 * live only in this object, which lives only as long as its request.
 */
import type { FindingKind } from '../finding';

export const PLACEHOLDER_NAMES: Readonly<Record<FindingKind, string>> = {
  email: 'EMAIL',
  phone: 'PHONE',
  card: 'CARD',
  iban: 'IBAN',
  ssn: 'SSN',
  ip: 'IP',
  openai_key: 'OPENAI_KEY',
  anthropic_key: 'ANTHROPIC_KEY',
  aws_access_key: 'AWS_ACCESS_KEY',
  github_token: 'GITHUB_TOKEN',
  slack_token: 'SLACK_TOKEN',
  jwt: 'JWT',
  private_key: 'PRIVATE_KEY',
  bearer_token: 'BEARER_TOKEN',
  deny: 'DENIED',
};

/** Whether a kind's values are put back by `restore`. */
export const restorable = (kind: FindingKind): boolean => kind !== 'deny';

/** Longest placeholder text: `[`, the longest name, `_`, up to six digits, `]`. */
export const PLACEHOLDER_MAX_LENGTH =
  2 + Math.max(...Object.values(PLACEHOLDER_NAMES).map((n) => n.length)) + 1 + 6;

/** A placeholder's shape (global; its matches may or may not have been issued by a given request). */
export const PLACEHOLDER = /\[([A-Z][A-Z_]{1,20})_([1-9]\d{0,5})\]/g;

export class Placeholders {
  /** `${kind}\u0000${value}` → label. */
  readonly #labels = new Map<string, string>();
  /** label → value, for restorable kinds. */
  readonly #values = new Map<string, string>();
  readonly #seen = new Set<string>();
  readonly #counts: Partial<Record<FindingKind, number>> = {};

  label(kind: FindingKind, value: string): string {
    const key = `${kind}\u0000${value}`;
    let label = this.#labels.get(key);
    if (label === undefined) {
      const n = (this.#counts[kind] ?? 0) + 1;
      this.#counts[kind] = n;
      label = `[${PLACEHOLDER_NAMES[kind]}_${n}]`;
      this.#labels.set(key, label);
      this.#seen.add(value);
      if (restorable(kind)) this.#values.set(label, value);
    }
    return label;
  }

  /** `text` with every restorable placeholder of this request replaced by its value; others stay. */
  restore(text: string): string {
    if (this.#values.size === 0 || text.indexOf('[') < 0) return text;
    return text.replace(PLACEHOLDER, (label) => this.#values.get(label) ?? label);
  }

  /** The value behind a restorable label, if this request issued it. */
  valueOf(label: string): string | undefined {
    return this.#values.get(label);
  }

  /** Whether this request replaced `value` (under any kind). */
  hasValue(value: string): boolean {
    return this.#seen.has(value);
  }

  /** Distinct values replaced. */
  get size(): number {
    return this.#labels.size;
  }

  /** Distinct values replaced, per kind. */
  counts(): Partial<Record<FindingKind, number>> {
    return { ...this.#counts };
  }
}
