/**
 * Request ids as UUIDv7 (RFC 9562): 48 bits of Unix time in ms, then random
 * bits, so ids sort by time and each names the hour its log lives under in the
 * archive (src/logs/archive-layout.ts). Ten random bytes per id (74 random
 * bits after the version and variant), hex through a table built once.
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

export function uuid7(now: number = Date.now()): string {
  const r = crypto.getRandomValues(new Uint8Array(10));
  const ms = Math.max(0, Math.min(Math.trunc(now), 2 ** 48 - 1));
  const time = ms.toString(16).padStart(12, '0');
  return (
    `${time.slice(0, 8)}-${time.slice(8, 12)}-` +
    `7${HEX[r[0]!]!.slice(1)}${HEX[r[1]!]}-` +
    `${HEX[(r[2]! & 0x3f) | 0x80]}${HEX[r[3]!]}-` +
    `${HEX[r[4]!]}${HEX[r[5]!]}${HEX[r[6]!]}${HEX[r[7]!]}${HEX[r[8]!]}${HEX[r[9]!]}`
  );
}

const V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The time (epoch ms) a UUIDv7 was made at; null for anything else (older random ids included). */
export function uuid7Time(id: string): number | null {
  const m = V7.exec(id);
  return m ? Number.parseInt(`${m[1]}${m[2]}`, 16) : null;
}
