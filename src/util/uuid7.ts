/**
 * Request ids as UUIDv7 (RFC 9562): 48 bits of Unix time in ms, then random
 * bits, so ids sort by time and each names the hour its log lives under in the
 * archive (src/logs/archive/layout.ts). Ten random bytes per id (74 random
 * bits after the version and variant), hex through a table built once. The
 * bytes come from a pool filled 400 ids at a time, so an id costs no call
 * into the runtime (filled on first use: a Worker may not draw random bytes
 * at startup). Bytes are never handed out twice.
 */

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

const POOL = new Uint8Array(4000);
let drawn = POOL.length;

export function uuid7(now: number = Date.now()): string {
  if (drawn === POOL.length) {
    crypto.getRandomValues(POOL);
    drawn = 0;
  }
  const i = drawn;
  drawn += 10;
  const r = POOL;
  const ms = Math.max(0, Math.min(Math.trunc(now), 2 ** 48 - 1));
  const time = ms.toString(16).padStart(12, '0');
  return (
    `${time.slice(0, 8)}-${time.slice(8, 12)}-` +
    `7${HEX[r[i]!]!.slice(1)}${HEX[r[i + 1]!]}-` +
    `${HEX[(r[i + 2]! & 0x3f) | 0x80]}${HEX[r[i + 3]!]}-` +
    `${HEX[r[i + 4]!]}${HEX[r[i + 5]!]}${HEX[r[i + 6]!]}${HEX[r[i + 7]!]}${HEX[r[i + 8]!]}${HEX[r[i + 9]!]}`
  );
}

const V7 = /^([0-9a-f]{8})-([0-9a-f]{4})-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The time (epoch ms) a UUIDv7 was made at; null for anything else (older random ids included). */
export function uuid7Time(id: string): number | null {
  const m = V7.exec(id);
  return m ? Number.parseInt(`${m[1]}${m[2]}`, 16) : null;
}
