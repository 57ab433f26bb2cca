/**
 * A small Bloom filter over the request ids in one archive object (pure). It
 * rides in the object's custom metadata, so finding an old request by id is
 * one listing of its tenant's hour and one read of the object that holds it,
 * not a read of every object of the hour. 8 bits per id and 5 hashes: about
 * 2 % false positives, each costing one extra read that finds nothing.
 * At most MAX_BITS bits (base64 ≤ ~1.4 KB, inside R2's custom-metadata limit);
 * a bigger batch still gets a filter, just a less selective one.
 */
import { base64url } from '../../util/crypto';

const BITS_PER_ID = 8;
const HASHES = 5;
const MAX_BITS = 8192;

/** FNV-1a, 32 bits, with a seed: two of them give the double-hashing pair. */
function fnv(text: string, seed: number): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function positions(id: string, bits: number): number[] {
  const a = fnv(id, 0);
  const b = (fnv(id, 0x5bd1e995) | 1) >>> 0; // odd and unsigned (| alone makes it a signed int)
  return Array.from({ length: HASHES }, (_, i) => (a + i * b) % bits);
}

export function bloomOf(ids: readonly string[]): string {
  const bits = Math.min(MAX_BITS, Math.max(64, Math.ceil((ids.length * BITS_PER_ID) / 8) * 8));
  const bytes = new Uint8Array(bits / 8);
  for (const id of ids) for (const p of positions(id, bits)) bytes[p >> 3]! |= 1 << (p & 7);
  return base64url(bytes);
}

/** False only when `id` is certainly not in the set; a malformed filter answers true (read and see). */
export function bloomHas(filter: string, id: string): boolean {
  let bytes: Uint8Array;
  try {
    const bin = atob(filter.replaceAll('-', '+').replaceAll('_', '/'));
    bytes = Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
  } catch {
    return true;
  }
  if (bytes.length === 0) return true;
  const bits = bytes.length * 8;
  return positions(id, bits).every((p) => (bytes[p >> 3]! & (1 << (p & 7))) !== 0);
}
