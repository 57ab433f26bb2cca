/**
 * A local embedder that runs anywhere, offline, in microseconds: feature
 * hashing of normalised words, word bigrams and character trigrams, with
 * sublinear term frequency, stop words down-weighted, signed buckets, each
 * feature family scaled to a fixed share, and the result L2-normalised.
 *
 * What it captures is LEXICAL similarity: shared words, word order in pairs,
 * shared word pieces (so "invest"/"investing" or a typo still overlap). It
 * knows no synonyms and no meaning: "How do I learn Python?" and "How do I
 * learn Java?" look alike to it, "buy" and "purchase" do not. It exists so
 * `wrangler dev`, tests and offline deployments have a real semantic cache
 * with no model download; production should use Workers AI (or another
 * learned model through an OpenAI-compatible route). bench/semantic-eval.mjs
 * measures both on the same labelled pairs: on Quora duplicates this one
 * reaches ROC AUC 0.75, and at the default threshold 0.95 it serves 7 % of
 * duplicates with 0.5 % false hits (a conservative cache, not a clever one).
 *
 * Deterministic and pure; the vocabulary is never stored, so two isolates
 * (or the bench in Node) give bit-identical vectors.
 */
import type { Embedder } from './embedder';
import { unitVector } from '../util/vectors';

export const LOCAL_EMBEDDER_DIMENSIONS = 512;

/** Share of the final vector's energy given to each feature family. */
const FAMILY_WEIGHTS = { word: 1, bigram: 0.3, trigram: 0.8 } as const;
type Family = keyof typeof FAMILY_WEIGHTS;

/** Weight of a stop word relative to a content word. */
const STOP_WEIGHT = 0.2;

/**
 * Function words. Question words (what, why, how…), modals (can, should,
 * will…) and negations are deliberately NOT here: they carry the intent
 * ("why are bridges used" is not "how are bridges used").
 */
const STOP_WORDS = new Set(
  (
    'a an and are as at be been but by for from had has have i if in into is it its me my ' +
    'of on or our so than that the their them then there these they this to was we were with you your'
  ).split(' '),
);

/** Lower-case, accents stripped, apostrophes joined ("what's" → "whats"), trailing + and # kept ("c++", "c#"), everything else a space. */
export function normaliseText(text: string): string[] {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/['’`]/g, '')
    .split(/[^\p{L}\p{N}+#]+/u)
    .map((w) => w.replace(/^[+#]+/, ''))
    .filter((w) => w !== '');
}

/** A light suffix stripper so plurals and common inflections share a unigram. */
function stem(word: string): string {
  if (word.length > 5 && word.endsWith('ing')) return word.slice(0, -3);
  if (word.length > 4 && word.endsWith('ed')) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith('s') && !word.endsWith('ss')) return word.slice(0, -1);
  return word;
}

/** 32-bit FNV-1a over UTF-16 code units, then a murmur3 finaliser for well-spread bits. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

type Features = Map<string, number>;

function add(features: Features, key: string, weight: number): void {
  features.set(key, (features.get(key) ?? 0) + weight);
}

/** Raw (term → summed weight) features of each family. */
function extract(words: string[]): Record<Family, Features> {
  const out: Record<Family, Features> = { word: new Map(), bigram: new Map(), trigram: new Map() };
  const weightOf = (w: string) => (STOP_WORDS.has(w) ? STOP_WEIGHT : 1);
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as string;
    add(out.word, stem(w), weightOf(w));
    const next = words[i + 1];
    if (next !== undefined)
      add(
        out.bigram,
        `${stem(w)} ${stem(next)}`,
        Math.min(weightOf(w), weightOf(next)) === 1 ? 1 : STOP_WEIGHT,
      );
    if (!STOP_WORDS.has(w)) {
      const padded = `#${w}#`;
      for (let j = 0; j + 3 <= padded.length; j++) add(out.trigram, padded.slice(j, j + 3), 1);
    }
  }
  return out;
}

/** Hashes one family into its own unit vector, with sublinear (1 + ln) term frequency. */
function project(features: Features, family: Family, dimensions: number): Float32Array {
  const v = new Float32Array(dimensions);
  for (const [term, weight] of features) {
    const h = hash32(`${family}:${term}`);
    const sign = h & 0x80000000 ? -1 : 1;
    v[h % dimensions] = (v[h % dimensions] as number) + sign * (weight >= 1 ? 1 + Math.log(weight) : weight);
  }
  return unitVector(v);
}

/** The embedding of one text (pure). */
export function embedLocally(text: string, dimensions = LOCAL_EMBEDDER_DIMENSIONS): Float32Array {
  const families = extract(normaliseText(text));
  const out = new Float32Array(dimensions);
  for (const family of Object.keys(FAMILY_WEIGHTS) as Family[]) {
    const part = project(families[family], family, dimensions);
    const weight = FAMILY_WEIGHTS[family];
    for (let i = 0; i < dimensions; i++) out[i] = (out[i] as number) + weight * (part[i] as number);
  }
  return unitVector(out);
}

export function localEmbedder(dimensions = LOCAL_EMBEDDER_DIMENSIONS): Embedder {
  return {
    id: `local-hash-v1:${dimensions}`,
    dimensions,
    embed: async (texts) => texts.map((t) => embedLocally(t, dimensions)),
  };
}
