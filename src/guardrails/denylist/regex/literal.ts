/**
 * A pattern's required literal, read off its AST for the prefilter: a small set
 * of case-folded strings such that every match contains one of them, with how
 * far a match can reach before and after that occurrence. `inv0-\d{6}` gives
 * {"inv0-"} (0 before, 6 after), `project (alpha|beta)` gives {"project alpha",
 * "project beta"}, `(foo|bar)\d+` gives {"foo", "bar"} (0 before, unbounded
 * after). Patterns whose best set has a string shorter than 2 code units (`\d+`,
 * `a.b`) have none: they would gate nothing.
 *
 * Soundness is what matters here (a claimed literal that some match lacks would
 * lose matches); each rule below only combines facts that hold for every match.
 */
import { foldUnit } from '../chars';
import { maxMatchLength, type Node } from './ast';
import { compileClass } from './char-class';

export interface RequiredLiteral {
  /** Case-folded strings, each at least MIN_LITERAL long; every match contains one of them. */
  readonly strings: readonly string[];
  /** At most this many code units of a match precede the occurrence (Infinity: unbounded). */
  readonly before: number;
  /** At most this many code units of a match follow it (Infinity: unbounded). */
  readonly after: number;
}

export const MIN_LITERAL = 2;
/** Largest set of alternatives tracked (a cross product above this gives up the exact set). */
const MAX_SET = 16;
/** A class becomes a set of literals when it matches at most this many folded units. */
const MAX_CLASS = 4;

interface Info {
  /** Every string the node can match (folded), when there are at most MAX_SET; else null. */
  readonly exact: readonly string[] | null;
  /** The best required literal inside the node, or null. */
  readonly req: RequiredLiteral | null;
}

/** The required literal of a pattern, or null when it has none of length ≥ MIN_LITERAL. */
export function requiredLiteral(node: Node): RequiredLiteral | null {
  const { exact, req } = analyse(node);
  return best(req, exact && { strings: exact, before: 0, after: 0 });
}

const score = (lit: RequiredLiteral | null): number =>
  lit === null || lit.strings.length === 0 ? 0 : Math.min(...lit.strings.map((s) => s.length));

/** The more selective of two candidates: longer shortest string, then fewer strings. */
function best(a: RequiredLiteral | null, b: RequiredLiteral | null): RequiredLiteral | null {
  const sa = score(a) >= MIN_LITERAL ? score(a) : 0;
  const sb = score(b) >= MIN_LITERAL ? score(b) : 0;
  if (sa === 0 && sb === 0) return null;
  if (sa !== sb) return sa > sb ? a : b;
  return a!.strings.length <= b!.strings.length ? a : b;
}

function product(left: readonly string[], right: readonly string[]): string[] | null {
  if (left.length * right.length > MAX_SET) return null;
  const out = new Set<string>();
  for (const l of left) for (const r of right) out.add(l + r);
  return [...out];
}

function classMembers(node: Extract<Node, { type: 'class' }>): string[] | null {
  const { spec } = node;
  if (spec.negated || spec.preds !== 0) return null;
  // A text unit c matches when fold(c) is in the compiled ranges; fold(c) is a fixed point of folding.
  const { ranges } = compileClass(spec);
  const members: string[] = [];
  for (let k = 0; k < ranges.length; k += 2) {
    if (ranges[k + 1]! - ranges[k]! > 64) return null;
    for (let u = ranges[k]!; u <= ranges[k + 1]!; u++) {
      if (foldUnit(u) !== u) continue;
      if (members.length === MAX_CLASS) return null;
      members.push(String.fromCharCode(u));
    }
  }
  return members;
}

function analyse(node: Node): Info {
  switch (node.type) {
    case 'empty':
    case 'assert':
      return { exact: [''], req: null };
    case 'char':
      return { exact: [String.fromCharCode(foldUnit(node.unit))], req: null };
    case 'any':
      return { exact: null, req: null };
    case 'class':
      return { exact: classMembers(node), req: null };
    case 'concat':
      return concat(node.items);
    case 'alt': {
      const infos = node.items.map(analyse);
      const all = new Set<string>();
      let exact = true;
      for (const info of infos) {
        if (info.exact === null) exact = false;
        else for (const s of info.exact) all.add(s);
      }
      // Each branch's own best literal; the alternation requires one of them.
      const branches = infos.map((info) =>
        best(info.req, info.exact && { strings: info.exact, before: 0, after: 0 }),
      );
      const req = branches.every((b) => b !== null)
        ? {
            strings: [...new Set(branches.flatMap((b) => b!.strings))],
            before: Math.max(...branches.map((b) => b!.before)),
            after: Math.max(...branches.map((b) => b!.after)),
          }
        : null;
      return { exact: exact && all.size <= MAX_SET ? [...all] : null, req };
    }
    case 'repeat':
      return repeat(node);
  }
}

function concat(items: readonly Node[]): Info {
  const infos = items.map(analyse);
  const lengths = items.map(maxMatchLength);
  const sum = (from: number, to: number) => lengths.slice(from, to).reduce((a, b) => a + b, 0);
  let req: RequiredLiteral | null = null;
  let whole = true;
  // Runs of consecutive items with exact sets multiply into one set of literals.
  let run: readonly string[] | null = null;
  let runStart = 0;
  const close = (end: number) => {
    if (run) req = best(req, { strings: run, before: sum(0, runStart), after: sum(end, items.length) });
    run = null;
  };
  infos.forEach((info, k) => {
    if (info.req)
      req = best(req, {
        strings: info.req.strings,
        before: sum(0, k) + info.req.before,
        after: info.req.after + sum(k + 1, items.length),
      });
    if (info.exact === null) {
      whole = false;
      close(k);
      return;
    }
    const joined: string[] | null = run ? product(run, info.exact) : [...info.exact];
    if (joined === null) {
      whole = false;
      close(k);
      run = info.exact;
      runStart = k;
    } else {
      if (!run) runStart = k;
      run = joined;
    }
  });
  const exact = whole ? run : null;
  close(items.length);
  return { exact, req };
}

function repeat(node: Extract<Node, { type: 'repeat' }>): Info {
  const body = analyse(node.body);
  const bodyMax = maxMatchLength(node.body);
  let req: RequiredLiteral | null = null;
  if (node.min >= 1) {
    // The first repetition holds the literal; the others can only follow it.
    const inner = best(body.req, body.exact && { strings: body.exact, before: 0, after: 0 });
    const rest = node.max === Infinity ? (bodyMax > 0 ? Infinity : 0) : (node.max - 1) * bodyMax;
    if (inner) req = { strings: inner.strings, before: inner.before, after: inner.after + rest };
  }
  let exact: readonly string[] | null = null;
  if (body.exact && node.max !== Infinity) {
    const all = new Set<string>(node.min === 0 ? [''] : []);
    let power: readonly string[] | null = [''];
    for (let k = 1; k <= node.max && power; k++) {
      power = product(power, body.exact);
      if (power && k >= node.min) for (const s of power) all.add(s);
    }
    exact = power && all.size <= MAX_SET ? [...all] : null;
  }
  return { exact, req };
}
