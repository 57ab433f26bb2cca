/**
 * A seeded generator of labelled sentences for the PII and secret detectors:
 * sentences embedding valid values (Luhn-valid cards of several networks,
 * IBANs of several countries with correct check digits, SSNs in issued
 * ranges, phones, e-mail addresses, IPs, and each credential kind) with their
 * spans, and hard negatives with no span (Luhn-invalid card-like numbers,
 * IBANs with a wrong checksum, SSNs in never-issued ranges, dates, order
 * numbers, versions, UUIDs, hex hashes, prices, times). Same seed, same
 * corpus: `generateCorpus({ seed, perKind })` → [{ text, spans: [{kind, start, end}] }].
 */

/** mulberry32: a small, fast, seedable PRNG. */
export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const DIGITS = '0123456789';
const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const BASE62 = UPPER + LOWER + DIGITS;
const B64URL = `${BASE62}-_`;
const HEX = '0123456789abcdef';

function tools(r) {
  const int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1));
  const pick = (xs) => xs[Math.floor(r() * xs.length)];
  const chars = (alphabet, n) => Array.from({ length: n }, () => pick(alphabet)).join('');
  return { int, pick, chars };
}

// ---- checksummed values ----

function luhnDigit(body) {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const NETWORKS = [
  { name: 'visa', prefixes: ['4'], length: 16 },
  { name: 'mastercard', prefixes: ['51', '53', '55', '2221', '2500', '2720'], length: 16 },
  { name: 'amex', prefixes: ['34', '37'], length: 15 },
  { name: 'discover', prefixes: ['6011', '65'], length: 16 },
  { name: 'jcb', prefixes: ['3528', '3589'], length: 16 },
  { name: 'diners', prefixes: ['36', '300'], length: 14 },
  { name: 'unionpay', prefixes: ['62'], length: 16 },
];

function card(t, valid) {
  const net = t.pick(NETWORKS);
  const prefix = t.pick(net.prefixes);
  const body = prefix + t.chars(DIGITS, net.length - prefix.length - 1);
  const good = luhnDigit(body);
  const check = valid ? good : String((Number(good) + t.int(1, 9)) % 10);
  const digits = body + check;
  const style = t.int(0, 2);
  if (style === 0) return digits;
  const sep = style === 1 ? ' ' : '-';
  if (net.length === 15) return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10)].join(sep);
  return digits.match(/.{1,4}/g).join(sep);
}

const IBAN_FORMATS = {
  DE: (t) => t.chars(DIGITS, 18),
  GB: (t) => t.chars(UPPER, 4) + t.chars(DIGITS, 14),
  FR: (t) => t.chars(DIGITS, 23),
  NL: (t) => t.chars(UPPER, 4) + t.chars(DIGITS, 10),
  ES: (t) => t.chars(DIGITS, 20),
  IT: (t) => t.chars(UPPER, 1) + t.chars(DIGITS, 22),
  BE: (t) => t.chars(DIGITS, 12),
  CH: (t) => t.chars(DIGITS, 17),
  PL: (t) => t.chars(DIGITS, 24),
  AT: (t) => t.chars(DIGITS, 16),
};

function mod97(s) {
  let rem = 0;
  for (const ch of s) {
    const v = /[A-Z]/.test(ch) ? String(ch.charCodeAt(0) - 55) : ch;
    for (const d of v) rem = (rem * 10 + Number(d)) % 97;
  }
  return rem;
}

function iban(t, valid) {
  const country = t.pick(Object.keys(IBAN_FORMATS));
  const bban = IBAN_FORMATS[country](t);
  const good = 98 - mod97(`${bban}${country}00`);
  const check = valid ? good : ((good - 2 + t.int(1, 95)) % 96) + 2;
  const compact = `${country}${String(check).padStart(2, '0')}${bban}`;
  return t.int(0, 1) ? compact : compact.match(/.{1,4}/g).join(' ');
}

function ssn(t, valid) {
  const pad = (n, w) => String(n).padStart(w, '0');
  if (valid) {
    let area = t.int(1, 899);
    if (area === 666) area = 665;
    return `${pad(area, 3)}-${pad(t.int(1, 99), 2)}-${pad(t.int(1, 9999), 4)}`;
  }
  const bad = t.int(0, 4);
  const area = [0, 666, t.int(900, 999), t.int(1, 665), t.int(1, 665)][bad];
  const group = bad === 3 ? 0 : t.int(1, 99);
  const serial = bad === 4 ? 0 : t.int(1, 9999);
  return `${pad(area, 3)}-${pad(group, 2)}-${pad(serial, 4)}`;
}

// ---- other personal data ----

function phone(t) {
  const n = (k) => t.chars(DIGITS, k);
  const nxx = () => String(t.int(2, 9)) + n(2);
  return t.pick([
    () => `(${nxx()}) ${nxx()}-${n(4)}`,
    () => `${nxx()}-${nxx()}-${n(4)}`,
    () => `${nxx()}.${nxx()}.${n(4)}`,
    () => `+1 ${nxx()} ${nxx()} ${n(4)}`,
    () => `+1${nxx()}${nxx()}${n(4)}`,
    () => `+44 20 ${n(4)} ${n(4)}`,
    () => `020 ${n(4)} ${n(4)}`,
    () => `+33 ${t.int(1, 9)} ${n(2)} ${n(2)} ${n(2)} ${n(2)}`,
    () => `0${t.int(1, 9)} ${n(2)} ${n(2)} ${n(2)} ${n(2)}`,
    () => `+49 30 ${n(7)}`,
    () => `+49 ${t.int(151, 179)} ${n(8)}`,
  ])();
}

function email(t) {
  const name = t.pick(['john', 'maria.garcia', 'li.wei', 'a.b-c', 'support', 'j_smith', 'anna+news', 'x9']);
  const domain = t.pick([
    'example.com',
    'mail.example.co.uk',
    'corp.io',
    'uni-berlin.de',
    'ex.org',
    'sub.d.example.net',
  ]);
  return `${name}${t.int(0, 1) ? t.int(1, 99) : ''}@${domain}`;
}

function ip(t) {
  if (t.int(0, 2) > 0) return [t.int(1, 254), t.int(0, 255), t.int(0, 255), t.int(1, 254)].join('.');
  const g = () => t.chars(HEX, t.int(1, 4)).replace(/^0+(?=.)/, '');
  return t.pick([
    () => Array.from({ length: 8 }, g).join(':'),
    () => `2001:db8::${g()}`,
    () => `fe80::${g()}:${g()}:${g()}`,
    () => '::1',
    () => `${g()}:${g()}::${g()}`,
  ])();
}

// ---- credentials ----

function b64url(s) {
  return Buffer.from(s).toString('base64url');
}

const SECRETS = {
  openai_key: (t) => (t.int(0, 1) ? `sk-${t.chars(BASE62, 48)}` : `sk-proj-${t.chars(B64URL, 100)}`),
  anthropic_key: (t) => `sk-ant-api03-${t.chars(B64URL, 93)}AA`,
  aws_access_key: (t) => `${t.pick(['AKIA', 'ASIA'])}${t.chars('ABCDEFGHIJKLMNOPQRSTUVWXYZ234567', 16)}`,
  github_token: (t) =>
    t.int(0, 1)
      ? `${t.pick(['ghp', 'gho', 'ghu', 'ghs', 'ghr'])}_${t.chars(BASE62, 36)}`
      : `github_pat_${t.chars(BASE62, 22)}_${t.chars(BASE62, 59)}`,
  slack_token: (t) =>
    `${t.pick(['xoxb', 'xoxp', 'xoxa', 'xoxr', 'xoxs'])}-${t.chars(DIGITS, 12)}-${t.chars(DIGITS, 13)}-${t.chars(BASE62, 24)}`,
  jwt: (t) =>
    [
      b64url(JSON.stringify({ alg: t.pick(['HS256', 'RS256', 'ES256']), typ: 'JWT' })),
      b64url(JSON.stringify({ sub: t.chars(DIGITS, 10), name: t.pick(['Ann', 'Bo']), iat: t.int(1e9, 2e9) })),
      t.chars(B64URL, 43),
    ].join('.'),
  private_key: (t) => {
    const label = t.pick(['RSA PRIVATE KEY', 'PRIVATE KEY', 'EC PRIVATE KEY', 'OPENSSH PRIVATE KEY']);
    const lines = Array.from({ length: t.int(5, 25) }, () => t.chars(`${BASE62}+/`, 64));
    return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----`;
  },
};

/** A credential after a key name: only the value is the span. */
function bearer(t) {
  const value = t.int(0, 1) ? t.chars(B64URL, t.int(24, 64)) : t.chars(HEX, 40);
  const context = t.pick([
    'Authorization: Bearer ',
    'api_key=',
    'token: ',
    '"client_secret": "',
    'X-Api-Key: ',
    'password=',
  ]);
  return { context, value };
}

// ---- hard negatives ----

function negative(t) {
  const n = (k) => t.chars(DIGITS, k);
  return t.pick([
    () =>
      `on ${t.int(2000, 2030)}-${String(t.int(1, 12)).padStart(2, '0')}-${String(t.int(1, 28)).padStart(2, '0')}`,
    () =>
      `on ${String(t.int(1, 28)).padStart(2, '0')}/${String(t.int(1, 12)).padStart(2, '0')}/${t.int(1990, 2030)}`,
    () =>
      `on ${String(t.int(1, 28)).padStart(2, '0')}.${String(t.int(1, 12)).padStart(2, '0')}.${t.int(1990, 2030)}`,
    () =>
      `at ${t.int(0, 23)}:${String(t.int(0, 59)).padStart(2, '0')}:${String(t.int(0, 59)).padStart(2, '0')}`,
    () => `version ${t.int(0, 20)}.${t.int(0, 30)}.${t.int(0, 300)}`,
    () => `v${t.int(0, 9)}.${t.int(0, 99)}.${t.int(0, 99)}.${t.int(0, 9999)}`,
    () => `order #${n(t.int(6, 12))}`,
    () => `order number ${n(t.int(8, 16))}`,
    () => `invoice INV-${n(4)}-${n(6)}`,
    () => `costs $${t.int(1, 999)},${n(3)}.${n(2)}`,
    () => `total ${t.int(1, 999)} ${n(3)},${n(2)} EUR`,
    () => `id ${[8, 4, 4, 4, 12].map((k) => t.chars(HEX, k)).join('-')}`,
    () => `commit ${t.chars(HEX, 40)}`,
    () => `sha256 ${t.chars(HEX, 64)}`,
    () => `card ${card(t, false)}`,
    () => `iban ${iban(t, false)}`,
    () => `ssn ${ssn(t, false)}`,
    () => `address ${t.int(256, 999)}.${t.int(0, 255)}.${t.int(0, 255)}.${t.int(0, 255)}`,
    () => `call extension ${n(4)}`,
    () => `pip install sk-learn-${t.pick(['tools', 'extras'])} and task-${n(3)}`,
    () => `score ${t.int(0, 100)}/${t.int(100, 200)}, ${t.int(1, 9)}.${n(2)}%`,
    () => `the token limit is ${t.int(1000, 200000)}`,
    () => `ratio 0.${n(10)}`,
  ])();
}

// ---- sentences ----

const BEFORE = [
  '',
  'Please use ',
  'Contact: ',
  'My details are ',
  'see ',
  'Value was ',
  'Here: ',
  '(',
  'Note - ',
];
const AFTER = ['', '.', ', thanks.', ' for now', ')', ' and then stop.', '\n', '; ok'];

const KINDS = {
  email: (t) => email(t),
  phone: (t) => phone(t),
  card: (t) => card(t, true),
  iban: (t) => iban(t, true),
  ssn: (t) => ssn(t, true),
  ip: (t) => ip(t),
  ...SECRETS,
};

export function generateCorpus({ seed = 1, perKind = 300, negatives = 3000 } = {}) {
  const t = tools(rng(seed));
  const samples = [];
  const around = (value, kind, contextBefore = '') => {
    const before = t.pick(BEFORE) + contextBefore;
    const after = t.pick(AFTER);
    return {
      text: before + value + after,
      spans: [{ kind, start: before.length, end: before.length + value.length }],
    };
  };
  for (const [kind, make] of Object.entries(KINDS))
    for (let i = 0; i < perKind; i++) samples.push(around(make(t), kind));
  for (let i = 0; i < perKind; i++) {
    const { context, value } = bearer(t);
    samples.push(around(value, 'bearer_token', context));
  }
  for (let i = 0; i < negatives; i++) {
    const n = negative(t);
    samples.push({ text: `${t.pick(BEFORE)}${n}${t.pick(AFTER)}`, spans: [] });
  }
  return samples;
}
