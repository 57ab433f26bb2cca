/**
 * Puts an injected instruction into a record set where an attacker controls
 * the text (an e-mail body, a review, a transaction subject…): appended,
 * prepended, in the middle at a paragraph, line or sentence break, or in
 * place of the whole field, in one record or repeated in several, as
 * AgentDojo's injection vectors do. The instruction is fenced with two
 * private-use characters so that, after the record set is serialised (JSON
 * escapes, YAML blocks, CSV quotes), the exact rendered span can be found and
 * reported, and the fences removed.
 */

export const OPEN = '\uE000';
export const CLOSE = '\uE001';

function at(value, path) {
  let v = value;
  for (const k of path.slice(0, -1)) v = v[k];
  return [v, path[path.length - 1]];
}

function breaks(s) {
  const out = [];
  for (const re of [/\n\n/g, /\n/g, /[.!?] /g]) {
    for (const m of s.matchAll(re)) out.push(m.index + m[0].length);
    if (out.length) return out;
  }
  return out;
}

/** A deep copy that keeps class instances (the renderers' PyValue) as they are. */
function clone(v) {
  if (Array.isArray(v)) return v.map(clone);
  if (v && typeof v === 'object' && Object.getPrototypeOf(v) === Object.prototype)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)]));
  return v;
}

/** Returns a deep copy of `value` with `text` placed in some of `slots` (paths to strings). */
export function inject(t, value, slots, text) {
  const copy = clone(value);
  const n = t.weighted([
    [6, 1],
    [2, 2],
    [2, Math.min(slots.length, t.int(2, 4))],
  ]);
  const chosen = t.sample(slots, Math.max(1, n));
  const position = t.weighted([
    [55, 'append'],
    [25, 'middle'],
    [12, 'prepend'],
    [8, 'replace'],
  ]);
  const fenced = `${OPEN}${text}${CLOSE}`;
  const lead = /^\s/.test(text) ? '' : t.pick(['\n', '\n', ' ', '\n\n', '\n\n\n']);
  const trail = /\s$/.test(text) ? '' : t.pick(['\n', ' ', '\n\n']);
  for (const path of chosen) {
    const [obj, key] = at(copy, path);
    const s = String(obj[key] ?? '');
    if (position === 'replace' || s.trim() === '') obj[key] = fenced;
    else if (position === 'prepend') obj[key] = `${fenced}${trail}${s}`;
    else if (position === 'middle') {
      const cuts = breaks(s);
      if (cuts.length === 0) obj[key] = `${s}${lead}${fenced}`;
      else {
        const c = t.pick(cuts);
        obj[key] = `${s.slice(0, c)}${fenced}${trail}${s.slice(c)}`;
      }
    } else obj[key] = `${s}${lead}${fenced}`;
  }
  return { value: copy, position, copies: chosen.length };
}

/** Finds the first fenced span in rendered text; returns the text without fences and the span's text. */
export function unfence(rendered) {
  const a = rendered.indexOf(OPEN);
  const b = rendered.indexOf(CLOSE, a);
  if (a < 0 || b < 0) throw new Error('tool-outputs: the injection did not survive rendering');
  const span = rendered.slice(a + 1, b);
  const text = rendered.replaceAll(OPEN, '').replaceAll(CLOSE, '');
  return { text, span: span.replaceAll(OPEN, '').replaceAll(CLOSE, '') };
}
