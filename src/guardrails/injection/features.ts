/**
 * The injection detector's features, shared by the runtime and the training
 * script so both see exactly the same thing: hashed character 3-, 4- and
 * 5-grams over the normalised text (runs of spaces collapsed to one) and hashed
 * word 1- and 2-grams (CJK ideographs count as one-character words). One pass,
 * constant work per code unit, no allocation: hashes are computed from a ring
 * of the last five folded units and the running hash of the current word,
 * ASCII classes and folds come from tables.
 * Each feature is reported to a sink as (bucket, position), the position being
 * the offset (from the start of the scanned range) of the UTF-16 unit that
 * completed it, so the caller can bucket features into fixed-size blocks for
 * windowed scoring. Each completed word is also fed to the cue matcher
 * (cues.ts), whose cues go to `cueSink` with the same positions.
 */
import { type CueSink, cueStep, resetCues, wordClasses } from './cues';
import { IDEOGRAPH, SKIP, SPACE, WORD, charClass, fold } from './normalise';

export type FeatureSink = (bucket: number, position: number) => void;

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;
const SEED_CHARS = 0x3c6ef372;
const SEED_W1 = 0x6a09e667;
const SEED_W2 = 0x1b873593;

/** One multiply-xorshift finaliser: spreads every input bit into the high bits the bucket is taken from. */
function mix(h: number): number {
  return Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) ^ (h >>> 13);
}

function step(h: number, c: number): number {
  return Math.imul(h ^ c, FNV_PRIME);
}

/** Class and folded unit of every ASCII code, looked up rather than computed on the hot path. */
const ASCII_CLASS = new Uint8Array(128);
const ASCII_FOLD = new Uint16Array(128);
for (let c = 0; c < 128; c++) {
  ASCII_CLASS[c] = charClass(c);
  ASCII_FOLD[c] = fold(c);
}

/**
 * Reports every feature of `text[from, to)` to `sink`, with buckets in
 * [0, 2^bits), and every injection cue to `cueSink`. Linear in `to - from`; at
 * most five features per code unit, one cue-table probe per word.
 */
export function scanFeatures(
  text: string,
  from: number,
  to: number,
  bits: number,
  sink: FeatureSink,
  cueSink: CueSink,
): void {
  const shift = 32 - bits;
  resetCues();
  let wordIndex = 0;
  let p1 = 0x20;
  let p2 = 0;
  let p3 = 0;
  let p4 = 0;
  let word = FNV_OFFSET;
  let wordLength = 0;
  let previousWord = 0;
  let lastWasSpace = true;
  for (let i = from; i < to; i++) {
    const code = text.charCodeAt(i);
    const cls = code < 128 ? ASCII_CLASS[code]! : charClass(code);
    if (cls === SKIP) continue;
    let ch: number;
    if (cls === SPACE) {
      if (lastWasSpace) continue;
      ch = 0x20;
      lastWasSpace = true;
    } else {
      ch = code < 128 ? ASCII_FOLD[code]! : fold(code);
      lastWasSpace = false;
    }
    if (cls === WORD) {
      word = step(word, ch);
      wordLength++;
    } else if (wordLength > 0 || cls === IDEOGRAPH) {
      if (wordLength > 0) {
        sink(mix(word ^ SEED_W1) >>> shift, i - from);
        if (previousWord !== 0) sink(mix(step(previousWord, SEED_W2) ^ word) >>> shift, i - from);
        previousWord = word;
        const classes = wordClasses(word);
        if (classes !== 0) cueStep(classes, wordIndex, i - from, cueSink);
        wordIndex++;
      }
      if (cls === IDEOGRAPH) {
        const single = step(FNV_OFFSET, ch);
        sink(mix(single ^ SEED_W1) >>> shift, i - from);
        if (previousWord !== 0) sink(mix(step(previousWord, SEED_W2) ^ single) >>> shift, i - from);
        previousWord = single;
      }
      word = FNV_OFFSET;
      wordLength = 0;
    }
    // Hashed from the newest unit backwards, so the 4- and 5-grams extend the 3-gram's hash.
    let h = step(step(step(SEED_CHARS, ch), p1), p2);
    const at = i - from;
    sink(mix(h) >>> shift, at);
    if (p3 !== 0) {
      h = step(h, p3);
      sink(mix(h) >>> shift, at);
      if (p4 !== 0) sink(mix(step(h, p4)) >>> shift, at);
    }
    p4 = p3;
    p3 = p2;
    p2 = p1;
    p1 = ch;
  }
  if (wordLength > 0 && to > from) {
    sink(mix(word ^ SEED_W1) >>> shift, to - 1 - from);
    if (previousWord !== 0) sink(mix(step(previousWord, SEED_W2) ^ word) >>> shift, to - 1 - from);
    const classes = wordClasses(word);
    if (classes !== 0) cueStep(classes, wordIndex, to - 1 - from, cueSink);
  }
}
