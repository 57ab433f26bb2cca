/**
 * The seeded randomness every tool-output generator draws from: a mulberry32
 * stream wrapped in the helpers the record builders need (integers, picks,
 * weighted picks, samples, ids, dates, amounts). No Math.random anywhere, so
 * the same seed gives the same corpus byte for byte.
 */

/** mulberry32: a small, fast, seedable PRNG. */
export function prng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const MONTHS_LONG = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

const pad = (n, w = 2) => String(n).padStart(w, '0');

/** The helper kit handed to every generator. `r` is the raw stream. */
export function tools(r) {
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const chance = (p) => r() < p;
  const shuffle = (xs) => {
    const out = [...xs];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(r() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  const sample = (xs, n) => shuffle(xs).slice(0, Math.min(n, xs.length));
  /** Picks from [[weight, value], …]. */
  const weighted = (pairs) => {
    const total = pairs.reduce((s, [w]) => s + w, 0);
    let x = r() * total;
    for (const [w, v] of pairs) {
      x -= w;
      if (x < 0) return v;
    }
    return pairs[pairs.length - 1][1];
  };
  const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('');
  const hex = (n) => chars(HEX, n);
  const code = (n) => chars(ALNUM, n);
  const digits = (n) => chars('0123456789', n);
  const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick('89ab')}${hex(3)}-${hex(12)}`;
  /** A date as plain numbers, between 2022 and 2026. */
  const date = (fromYear = 2023, toYear = 2026) => {
    const y = int(fromYear, toYear);
    const m = int(1, 12);
    const d = int(1, 28);
    return { y, m, d, h: int(7, 19), min: pick([0, 0, 0, 15, 30, 30, 45, int(0, 59)]), s: int(0, 59) };
  };
  const later = (dt, days = 0, hours = 0, minutes = 0) => {
    const js = new Date(Date.UTC(dt.y, dt.m - 1, dt.d, dt.h, dt.min, dt.s));
    js.setUTCMinutes(js.getUTCMinutes() + minutes + hours * 60 + days * 1440);
    return {
      y: js.getUTCFullYear(),
      m: js.getUTCMonth() + 1,
      d: js.getUTCDate(),
      h: js.getUTCHours(),
      min: js.getUTCMinutes(),
      s: js.getUTCSeconds(),
    };
  };
  const weekday = (dt) => WEEKDAYS[new Date(Date.UTC(dt.y, dt.m - 1, dt.d)).getUTCDay()];
  const fmt = {
    iso: (dt) => `${dt.y}-${pad(dt.m)}-${pad(dt.d)}T${pad(dt.h)}:${pad(dt.min)}:${pad(dt.s)}`,
    isoZ: (dt) => `${dt.y}-${pad(dt.m)}-${pad(dt.d)}T${pad(dt.h)}:${pad(dt.min)}:${pad(dt.s)}Z`,
    day: (dt) => `${dt.y}-${pad(dt.m)}-${pad(dt.d)}`,
    time: (dt) => `${pad(dt.h)}:${pad(dt.min)}`,
    dayTime: (dt) => `${dt.y}-${pad(dt.m)}-${pad(dt.d)} ${pad(dt.h)}:${pad(dt.min)}`,
    long: (dt) => `${MONTHS_LONG[dt.m - 1]} ${dt.d}, ${dt.y}`,
    short: (dt) => `${dt.d} ${MONTHS[dt.m - 1]} ${dt.y}`,
    us: (dt) => `${pad(dt.m)}/${pad(dt.d)}/${dt.y}`,
    eu: (dt) => `${pad(dt.d)}.${pad(dt.m)}.${dt.y}`,
    rfc: (dt) =>
      `${weekday(dt)}, ${dt.d} ${MONTHS[dt.m - 1]} ${dt.y} ${pad(dt.h)}:${pad(dt.min)}:${pad(dt.s)} +0000`,
    monthDay: (dt) => `${MONTHS_LONG[dt.m - 1]} ${dt.d}`,
    weekdayLong: (dt) => `${weekday(dt)} ${dt.d} ${MONTHS[dt.m - 1]}`,
    ampm: (dt) => `${((dt.h + 11) % 12) + 1}:${pad(dt.min)} ${dt.h < 12 ? 'AM' : 'PM'}`,
  };
  const money = (lo, hi, cents = true) => {
    const v = lo + r() * (hi - lo);
    return cents ? Math.round(v * 100) / 100 : Math.round(v);
  };
  const amount = (v) => v.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
  return {
    r,
    int,
    pick,
    chance,
    shuffle,
    sample,
    weighted,
    chars,
    hex,
    code,
    digits,
    uuid,
    date,
    later,
    fmt,
    money,
    amount,
    pad,
  };
}
