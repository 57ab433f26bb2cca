/**
 * Llama Guard 3's hazard taxonomy (the MLCommons hazards S1–S13 plus S14,
 * code interpreter abuse), as Meta's model card names them, and the parser
 * for the classifier's answer in both of the shapes Workers AI returns
 * (developers.cloudflare.com/workers-ai/models/llama-guard-3-8b):
 * `response` is an object `{ safe, categories }` when `response_format` is
 * `json_object`, else the model's text, "safe" or "unsafe\nS1,S10". A JSON
 * object that arrives as text is read as the object. Anything else is not a
 * verdict (null): the caller treats it as the classifier being unavailable.
 */
import type { SecondOpinionVerdict } from './port';

export const HAZARD_CATEGORIES: Readonly<Record<string, string>> = {
  S1: 'Violent Crimes',
  S2: 'Non-Violent Crimes',
  S3: 'Sex-Related Crimes',
  S4: 'Child Sexual Exploitation',
  S5: 'Defamation',
  S6: 'Specialized Advice',
  S7: 'Privacy',
  S8: 'Intellectual Property',
  S9: 'Indiscriminate Weapons',
  S10: 'Hate',
  S11: 'Suicide & Self-Harm',
  S12: 'Sexual Content',
  S13: 'Elections',
  S14: 'Code Interpreter Abuse',
};

/** The category's name, or undefined for a code outside the taxonomy. */
export function hazardName(code: string): string | undefined {
  return Object.hasOwn(HAZARD_CATEGORIES, code) ? HAZARD_CATEGORIES[code] : undefined;
}

const CODE = /\bS(\d{1,2})\b/gi;

/** Hazard codes found in the given strings, upper-cased, deduplicated, in order of appearance. */
function codes(texts: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const text of texts) {
    if (typeof text !== 'string') continue;
    for (const m of text.matchAll(CODE)) seen.add(`S${Number(m[1])}`);
  }
  return [...seen];
}

function fromObject(value: Record<string, unknown>): SecondOpinionVerdict | null {
  if (typeof value.safe !== 'boolean') return null;
  if (value.safe) return { safe: true, categories: [] };
  return { safe: false, categories: Array.isArray(value.categories) ? codes(value.categories) : [] };
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function fromText(text: string): SecondOpinionVerdict | null {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const value: unknown = JSON.parse(trimmed);
      return isRecord(value) ? fromObject(value) : null;
    } catch {
      return null;
    }
  }
  const newline = trimmed.indexOf('\n');
  const first = (newline === -1 ? trimmed : trimmed.slice(0, newline)).trim().toLowerCase();
  if (first === 'safe') return { safe: true, categories: [] };
  if (first === 'unsafe') return { safe: false, categories: codes([trimmed.slice(first.length)]) };
  return null;
}

/** The verdict in a Workers AI answer (`{ response, usage }`), or null when it holds none. */
export function parseVerdict(output: unknown): SecondOpinionVerdict | null {
  if (!isRecord(output)) return null;
  const { response } = output;
  if (isRecord(response)) return fromObject(response);
  if (typeof response === 'string') return fromText(response);
  return null;
}
