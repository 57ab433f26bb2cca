/**
 * The literal prefilter in front of the Pike VM. Each pattern with a required
 * literal (literal.ts) gets its own small program, run only where one of its
 * literals occurs: one Aho–Corasick pass over the text finds every occurrence of
 * every literal of the list, and each occurrence [a, b) opens the window
 * [a - before, b + after] (clipped to the text) in which any match containing it
 * must lie. Overlapping windows of one pattern merge, and the VM runs on each
 * merged window only. Patterns without a required literal share one program
 * over the whole text, as without the prefilter.
 *
 * The result equals the unfiltered engine's: every match contains an occurrence
 * of its pattern's literal, so it lies inside that occurrence's window, and the
 * VM on a window finds exactly the matches inside it (assertions read the whole
 * text). A pattern unbounded on one side gets a window reaching the text's edge
 * on that side; one unbounded after its literal thus runs from its first
 * occurrence's window to the end of the text.
 */
import type { Node } from './ast';
import { buildTermMatcher } from '../aho-corasick';
import { compileProgram } from './compile';
import { requiredLiteral } from './literal';
import { type LongestMatches, pikeVm } from './pike';

interface Gated {
  readonly run: LongestMatches;
  readonly before: number;
  readonly after: number;
}

export function prefilteredMatches(nodes: readonly Node[]): LongestMatches {
  const literals: string[] = [];
  const literalIds = new Map<string, number>();
  const owners: number[][] = [];
  const gated: Gated[] = [];
  const ungated: Node[] = [];
  for (const node of nodes) {
    const literal = requiredLiteral(node);
    if (literal === null) {
      ungated.push(node);
      continue;
    }
    const g = gated.length;
    gated.push({ run: pikeVm(compileProgram([node])), before: literal.before, after: literal.after });
    for (const s of literal.strings) {
      let id = literalIds.get(s);
      if (id === undefined) {
        id = literals.length;
        literalIds.set(s, id);
        literals.push(s);
        owners.push([]);
      }
      owners[id]!.push(g);
    }
  }
  const always = ungated.length > 0 ? pikeVm(compileProgram(ungated)) : null;
  const matcher = literals.length > 0 ? buildTermMatcher(literals, { wholeWords: false }) : null;
  // Per gated pattern, the window being grown (lo < 0: none yet).
  const lo = new Int32Array(gated.length);
  const hi = new Int32Array(gated.length);

  return function prefiltered(text, longest, from = 0, to = text.length) {
    let steps = always ? always(text, longest, from, to) : 0;
    if (!matcher) return steps;
    lo.fill(-1);
    matcher.forEach(text, (start, end, id) => {
      const patterns = owners[id]!;
      for (let k = 0; k < patterns.length; k++) {
        const g = patterns[k]!;
        const { before, after } = gated[g]!;
        const a = Math.max(from, start - before);
        const b = Math.min(to, end + after);
        if (a > b || start < from || end > to) continue;
        // Occurrences come in order of their end, so b never decreases: merge when the windows touch.
        if (lo[g]! >= 0 && a <= hi[g]!) {
          if (a < lo[g]!) lo[g] = a;
          if (b > hi[g]!) hi[g] = b;
          continue;
        }
        if (lo[g]! >= 0) steps += gated[g]!.run(text, longest, lo[g], hi[g]);
        lo[g] = a;
        hi[g] = b;
      }
    });
    for (let g = 0; g < gated.length; g++)
      if (lo[g]! >= 0) steps += gated[g]!.run(text, longest, lo[g], hi[g]);
    return steps;
  };
}
