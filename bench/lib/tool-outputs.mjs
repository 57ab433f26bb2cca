/**
 * The tool results the guardrail benches feed the injection detector's
 * tool-result path: rows of the seeded generator
 * scripts/guardrails/tool-outputs.mjs (`toolOutputs({ seed, count })`), and
 * fixed documents of about 1,000 tokens built from them, one set per format,
 * for the micro-benchmark. Another copy of the generator (a branch's, before it
 * is merged) is named by EDGEWAY_TOOL_OUTPUTS or a `--generator` option.
 * Document building is pure; only `loadGenerator` reads the disk.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const DEFAULT_GENERATOR = join(
  import.meta.dirname,
  '..',
  '..',
  'scripts',
  'guardrails',
  'tool-outputs.mjs',
);

/** The formats a micro-benchmark document comes in, and how rows of each are joined into one valid document. */
export const DOCUMENT_FORMATS = {
  json: { open: '[', sep: ',\n', close: ']' },
  'python-repr': { open: '[', sep: ', ', close: ']' },
  yaml: { open: '', sep: '\n---\n', close: '' },
  text: { open: '', sep: '\n\n', close: '' },
};

/** The generator at `path` (default: EDGEWAY_TOOL_OUTPUTS, else the repository's), or null when it is absent. */
export async function loadGenerator(path = process.env.EDGEWAY_TOOL_OUTPUTS || DEFAULT_GENERATOR) {
  const file = resolve(path);
  if (!existsSync(file)) return null;
  const mod = await import(pathToFileURL(file).href);
  if (typeof mod.toolOutputs !== 'function') throw new Error(`${file} exports no toolOutputs()`);
  return { path: file, toolOutputs: mod.toolOutputs };
}

/**
 * `count` documents of `format`, each of whole rows (`texts`, already in that format) joined as the
 * format joins them, at most `chars` units long and at least `fill` of it: a JSON array of JSON rows, a
 * Python list of reprs, YAML documents, paragraphs of text. Rows are taken in order, cycling; a row that
 * would overflow the document waits for a later one, and a document that cannot be filled from one
 * row starts again from the next. Throws when no start fills a document.
 */
export function fillDocuments(texts, format, { chars = 4_000, count = 8, fill = 0.95 } = {}) {
  const { open, sep, close } = DOCUMENT_FORMATS[format] ?? {};
  if (open === undefined) throw new Error(`unknown document format ${format}`);
  const pool = texts.filter((t) => t.length + open.length + close.length <= chars);
  const docs = [];
  let next = 0;
  while (docs.length < count) {
    let doc = null;
    for (let start = 0; start < pool.length && doc === null; start++) doc = fillOne(pool, next + start);
    if (doc === null) throw new Error(`${pool.length} ${format} rows cannot fill a ${chars}-unit document`);
    docs.push(`${open}${doc.parts.join(sep)}${close}`);
    next = doc.next;
  }
  return docs;

  function fillOne(rows, from) {
    const parts = [];
    let length = open.length + close.length;
    let at = from;
    for (let tries = 0; tries < rows.length && length < chars * fill; tries++) {
      const text = rows[at++ % rows.length];
      const grown = length + text.length + (parts.length > 0 ? sep.length : 0);
      if (grown > chars) continue;
      parts.push(text);
      length = grown;
    }
    return length >= chars * fill ? { parts, next: at } : null;
  }
}

/** Benign generator rows grouped by format (only the formats of DOCUMENT_FORMATS). */
export function rowsByFormat(rows) {
  const out = Object.fromEntries(Object.keys(DOCUMENT_FORMATS).map((f) => [f, []]));
  for (const row of rows) if (row.label === 'benign' && out[row.format]) out[row.format].push(row.text);
  return out;
}

/** Seeded records (an id, a title, a body of `words` of varied length) rendered in every format: the stand-in when the generator is absent. */
export function syntheticRows(words, count = 64) {
  const records = Array.from({ length: count }, (_, k) => ({
    id: k + 1,
    title: words(60, k * 2 + 1),
    body: words(200 + ((k * 389) % 1_100), k * 2 + 2),
  }));
  const py = (s) => `'${s.replaceAll('\\', '\\\\').replaceAll("'", "\\'")}'`;
  return {
    json: records.map((r) => JSON.stringify(r, null, 2)),
    'python-repr': records.map((r) => `{'id': ${r.id}, 'title': ${py(r.title)}, 'body': ${py(r.body)}}`),
    yaml: records.map(
      (r) => `id: ${r.id}\ntitle: ${JSON.stringify(r.title)}\nbody: ${JSON.stringify(r.body)}`,
    ),
    text: records.map((r) => `${r.title}\n\n${r.body}`),
  };
}
