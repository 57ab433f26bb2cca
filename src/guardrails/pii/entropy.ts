/**
 * Shannon entropy in bits per character, and the "looks random" test the
 * credential detectors share: what separates a generated key from a long
 * identifier or a sentence glued with dashes. One counting table per isolate,
 * cleared after each use, so a call allocates nothing.
 */

const counts = new Uint16Array(128);

/** Bits per character of text[start, end); non-ASCII characters count as one symbol. */
export function shannonEntropy(text: string, start: number, end: number): number {
  const n = end - start;
  if (n <= 0) return 0;
  for (let i = start; i < end; i++) counts[Math.min(text.charCodeAt(i), 127)]!++;
  let bits = 0;
  for (let i = start; i < end; i++) {
    const k = counts[Math.min(text.charCodeAt(i), 127)]!;
    if (k === 0) continue;
    const p = k / n;
    bits -= p * Math.log2(p);
    counts[Math.min(text.charCodeAt(i), 127)] = 0;
  }
  return bits;
}

/** Entropy a generated credential reaches (random base64 of 20 characters is near 4.1; English near 3.5). */
export const RANDOM_ENTROPY = 3.0;

/**
 * A generated value rather than words: it mixes letters and digits and its entropy reaches RANDOM_ENTROPY.
 * Random base62 of 20 characters lacks a digit about 2 % of the time; such a value is missed, by design.
 */
export function looksRandom(text: string, start: number, end: number): boolean {
  let letter = false;
  let digit = false;
  for (let i = start; i < end && !(letter && digit); i++) {
    const c = text.charCodeAt(i) | 32;
    if (c >= 97 && c <= 122) letter = true;
    else if (c >= 48 && c <= 57) digit = true;
  }
  return letter && digit && shannonEntropy(text, start, end) >= RANDOM_ENTROPY;
}
