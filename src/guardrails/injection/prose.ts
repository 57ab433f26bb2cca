/**
 * The prose of a tool result (pure): the parts of it where an instruction can
 * hide, without the structure around them. A JSON document gives its string
 * values (not its keys, numbers or punctuation); a Python-printed dict or list
 * (single-quoted, as many agent frameworks return tool results) gives its
 * string literals that are not keys, unescaped; YAML gives each line's value
 * without its key (as serialisers write keys) or list marker; an HTML page gives
 * its text and its comments' text, without tags; anything else is prose already. Values are
 * joined by newlines, so each starts a sentence of its own.
 *
 * The detector reads this rather than the raw text so that markup, keys and
 * length do not raise a score: a four-line YAML list is four short values,
 * not an unusual text.
 */

/** At most this many values are collected from a structured result (the rest are left out). */
const MAX_VALUES = 20_000;

/** The prose of `text`: its string values, one per line, or the text itself. */
export function proseOf(text: string): string {
  const first = firstNonSpace(text);
  if (first === 0x7b || first === 0x5b) {
    const json = jsonValues(text);
    if (json !== null) return json.join('\n');
    return quotedLiterals(text).join('\n');
  }
  if (first === 0x3c && HTML_CLOSE.test(text)) return htmlText(text);
  if (looksLikeYaml(text)) return yamlValues(text);
  return text;
}

const HTML_CLOSE = /<\/[A-Za-z][\w-]*\s*>/;
/** A tag with its attributes, but not a comment's markers (handled first). */
const HTML_TAG = /<\/?[A-Za-z][^<>]*>/g;
const HTML_COMMENT = /<!--|-->/g;
const ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  '#39': "'",
};

/** An HTML page's text: tags dropped (each ends a line), comments' text kept, common entities decoded. */
function htmlText(text: string): string {
  return text
    .replace(HTML_COMMENT, '\n')
    .replace(HTML_TAG, '\n')
    .replace(/&(amp|lt|gt|quot|apos|nbsp|#39);/g, (_, name: string) => ENTITIES[name]!)
    .replace(/\n\s*\n+/g, '\n');
}

function firstNonSpace(text: string): number {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 0x20) return c;
  }
  return -1;
}

/** String values of a JSON document, depth first, or null when it is not JSON. */
function jsonValues(text: string): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  const out: string[] = [];
  const visit = (value: unknown): void => {
    if (out.length >= MAX_VALUES) return;
    if (typeof value === 'string') {
      if (value !== '') out.push(value);
    } else if (Array.isArray(value)) {
      for (const v of value) visit(v);
    } else if (value !== null && typeof value === 'object') {
      for (const v of Object.values(value)) visit(v);
    }
  };
  visit(parsed);
  return out;
}

const ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  b: '\b',
  f: '\f',
  '0': '\0',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '/': '/',
};

/**
 * The quoted string literals of a Python repr (or of JSON cut short), unescaped, leaving out keys: a
 * literal followed by a colon. Unquoted tokens (numbers, True, None) are structure.
 */
function quotedLiterals(text: string): string[] {
  const out: string[] = [];
  let i = 0;
  const n = text.length;
  while (i < n && out.length < MAX_VALUES) {
    const q = text.charCodeAt(i);
    if (q !== 0x27 && q !== 0x22) {
      i++;
      continue;
    }
    let value = '';
    let start = i + 1;
    let j = start;
    for (; j < n; j++) {
      const c = text.charCodeAt(j);
      if (c === q) break;
      if (c !== 0x5c || j + 1 >= n) continue;
      value += text.slice(start, j);
      const e = text[j + 1]!;
      if ((e === 'x' || e === 'u') && j + 2 < n) {
        const width = e === 'x' ? 2 : 4;
        const code = Number.parseInt(text.slice(j + 2, j + 2 + width), 16);
        if (Number.isFinite(code)) {
          value += String.fromCharCode(code);
          j += 1 + width;
          start = j + 1;
          continue;
        }
      }
      value += ESCAPES[e] ?? e;
      j++;
      start = j + 1;
    }
    value += text.slice(start, j);
    i = j + 1;
    let k = i;
    while (k < n && (text.charCodeAt(k) === 0x20 || text.charCodeAt(k) === 0x09)) k++;
    if (text.charCodeAt(k) === 0x3a) continue; // a key
    if (value !== '') out.push(value);
  }
  return out;
}

/**
 * `key:` after indentation and list markers: an identifier as serialisers write keys (lower case first,
 * no spaces, at most 41 units). A capitalised `Note:`, `Important:` or `Assistant:` is prose: it stays.
 */
const YAML_KEY = /^\s*(?:-\s+)*[a-z_][\w.-]{0,40}:(?:\s|$)/;
const YAML_ITEM = /^\s*-\s/;

/** Most non-blank lines (at least two) are `key: value` pairs or list items. */
function looksLikeYaml(text: string): boolean {
  let lines = 0;
  let structured = 0;
  let start = 0;
  for (let k = 0; k < 64 && start < text.length; k++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line.trim() === '') continue;
    lines++;
    if (YAML_KEY.test(line) || YAML_ITEM.test(line)) structured++;
  }
  return lines >= 2 && structured * 4 >= lines * 3;
}

/** Each line's value: without its key and list markers, and without the quotes around it. */
function yamlValues(text: string): string {
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const key = YAML_KEY.exec(line);
    let value = key ? line.slice(key[0].length) : line.replace(YAML_ITEM, '');
    value = value.trim();
    if (value === '|' || value === '>' || value === '|-' || value === '>-') continue;
    const q = value.charCodeAt(0);
    if ((q === 0x27 || q === 0x22) && value.charCodeAt(value.length - 1) === q && value.length >= 2)
      value = value.slice(1, -1);
    if (value !== '') out.push(value);
  }
  return out.join('\n');
}
