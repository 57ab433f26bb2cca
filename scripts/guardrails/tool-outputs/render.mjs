/**
 * Serialisers for tool results, written to print what real tools print:
 * JSON (pretty and compact), YAML as PyYAML's safe_dump lays it out (plain
 * scalars where safe, quoted otherwise, multi-line text as a literal block or a
 * double-quoted string), Python's str() of dicts and lists (single quotes
 * unless the text holds one, \n escaped, True/False/None), and CSV (RFC 4180
 * quoting). A `PyValue` prints as Python source in the repr (datetime objects,
 * enums) and as its plain form everywhere else.
 */

export class PyValue {
  /** `yaml`, when given, is printed as is (PyYAML writes a datetime as an unquoted timestamp). */
  constructor(repr, plain, yaml) {
    this.repr = repr;
    this.plain = plain;
    this.yaml = yaml;
  }
}

export const pyDatetime = (dt, iso) =>
  new PyValue(
    `datetime.datetime(${dt.y}, ${dt.m}, ${dt.d}, ${dt.h}, ${dt.min}${dt.s ? `, ${dt.s}` : ''})`,
    iso,
    iso.replace('T', ' ').replace(/Z$/, ''),
  );

const plainOf = (v) => (v instanceof PyValue ? v.plain : v);

function toPlain(v) {
  if (v instanceof PyValue) return v.plain;
  if (Array.isArray(v)) return v.map(toPlain);
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toPlain(x)]));
  return v;
}

export const json = (v) => JSON.stringify(toPlain(v), null, 2);
export const jsonCompact = (v) => JSON.stringify(toPlain(v));
export const jsonSpaced = (v) => JSON.stringify(toPlain(v)).replace(/","/g, '", "').replace(/":/g, '": ');

// --- Python repr -------------------------------------------------------------------------------------

function pyString(s) {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = '';
  for (const ch of s) {
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === quote) out += `\\${quote}`;
    else out += ch;
  }
  return quote + out + quote;
}

export function python(v) {
  if (v instanceof PyValue) return v.repr;
  if (v === null || v === undefined) return 'None';
  if (v === true) return 'True';
  if (v === false) return 'False';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : String(v);
  if (typeof v === 'string') return pyString(v);
  if (Array.isArray(v)) return `[${v.map(python).join(', ')}]`;
  return `{${Object.entries(v)
    .map(([k, x]) => `${pyString(k)}: ${python(x)}`)
    .join(', ')}}`;
}

// --- YAML --------------------------------------------------------------------------------------------

const YAML_RESERVED = /^(true|false|yes|no|on|off|null|~|y|n)$/i;

function yamlScalar(s, indent, blockStyle) {
  if (s === '') return "''";
  if (s.includes('\n')) {
    if (blockStyle && !/^\s/.test(s) && !/[ \t]\n/.test(s)) {
      const chomp = s.endsWith('\n') ? '' : '-';
      const body = s.replace(/\n$/, '');
      return `|${chomp}\n${body
        .split('\n')
        .map((line) => (line === '' ? '' : indent + line))
        .join('\n')}`;
    }
    return JSON.stringify(s);
  }
  const needsQuote =
    YAML_RESERVED.test(s) ||
    /^[-?:,[\]{}#&*!|>'"%@`\s]/.test(s) ||
    /: |\s#|:$|\s$/.test(s) ||
    /^[+-]?(\d[\d_]*(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(s) ||
    /^\d{4}-\d\d-\d\d/.test(s);
  if (!needsQuote) return s;
  return `'${s.replace(/'/g, "''")}'`;
}

function yamlValue(v, indent, blockStyle) {
  if (v instanceof PyValue && v.yaml) return v.yaml;
  const x = plainOf(v);
  if (x === null || x === undefined) return 'null';
  if (typeof x === 'boolean' || typeof x === 'number') return String(x);
  return yamlScalar(String(x), indent, blockStyle);
}

function isScalar(v) {
  return v instanceof PyValue || v === null || typeof v !== 'object';
}

function yamlLines(v, indent, blockStyle) {
  const pad = '  '.repeat(indent);
  const inner = '  '.repeat(indent + 1);
  if (Array.isArray(v)) {
    if (v.length === 0) return [`${pad}[]`];
    const out = [];
    for (const item of v) {
      if (isScalar(item)) out.push(`${pad}- ${yamlValue(item, inner, blockStyle)}`);
      else {
        const sub = yamlLines(item, indent + 1, blockStyle);
        out.push(`${pad}- ${sub[0].trimStart()}`, ...sub.slice(1));
      }
    }
    return out;
  }
  const entries = Object.entries(v);
  if (entries.length === 0) return [`${pad}{}`];
  const out = [];
  for (const [k, x] of entries) {
    const key = yamlScalar(k, inner, false);
    if (isScalar(x)) out.push(`${pad}${key}: ${yamlValue(x, inner, blockStyle)}`);
    else if (Array.isArray(x) && x.length === 0) out.push(`${pad}${key}: []`);
    else if (Array.isArray(x)) out.push(`${pad}${key}:`, ...yamlLines(x, indent, blockStyle));
    else out.push(`${pad}${key}:`, ...yamlLines(x, indent + 1, blockStyle));
  }
  return out;
}

/** YAML; `block` chooses literal blocks for multi-line strings (else double-quoted). */
export const yaml = (v, block = true) => yamlLines(v, 0, block).join('\n');

// --- CSV ---------------------------------------------------------------------------------------------

const csvCell = (v) => {
  const s = String(plainOf(v) ?? '');
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** CSV of a list of flat records (columns from the first record), or of [header, ...rows] arrays. */
export function csv(rows, sep = ',') {
  if (rows.length && Array.isArray(rows[0])) return rows.map((r) => r.map(csvCell).join(sep)).join('\n');
  const cols = Object.keys(rows[0] ?? {});
  return [cols.join(sep), ...rows.map((r) => cols.map((c) => csvCell(r[c])).join(sep))].join('\n');
}
