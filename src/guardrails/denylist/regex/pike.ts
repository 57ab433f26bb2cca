/**
 * The Pike VM: a breadth-first simulation of the compiled NFA that never
 * backtracks, so its work is O(text length × program size) whatever the
 * pattern. It runs the backward program from the end of the text to its start,
 * starting a thread at every offset where a match could end; each thread carries
 * the offset where its (forward) match ends. Threads are kept in order of that
 * end, farthest first, and a program counter reached twice at one offset keeps
 * only its first thread, so when a thread reaches MATCH at offset p its end is
 * the end of the longest match that starts at p. Where threads start is
 * precomputed (seeds.ts), so offsets no pattern can end at cost one lookup.
 *
 * Buffers are sized to the program and allocated once per compiled program;
 * nothing is allocated per character. One long function: the hot loop keeps
 * its arrays in locals, which is what keeps a step cheap.
 */
import { foldUnit, isLineTerminator, isWordAt, isWordBefore } from '../chars';
import { classMatches } from './char-class';
import { buildSeeds, SEED_AT_BOUNDARY, SEED_AT_END } from './seeds';
import {
  ASSERT_END,
  ASSERT_START,
  ASSERT_WORD,
  OP_ANY,
  OP_ASSERT,
  OP_CHAR,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
  type Program,
} from './compile';

/**
 * Fills `longest[p]` (when larger) with the end of the longest match starting at p; returns the work done,
 * 0 only when nothing was examined (so nothing was written).
 * With `from` and `to`, only matches lying inside [from, to) are found (assertions still see the whole text).
 */
export type LongestMatches = (text: string, longest: Int32Array, from?: number, to?: number) => number;

export function pikeVm(program: Program): LongestMatches {
  const { classes } = program;
  const { tables, usesBoundary, latin1 } = buildSeeds(program);
  const size = program.op.length;
  const buffers = [
    new Int32Array(size),
    new Int32Array(size),
    new Int32Array(size),
    new Int32Array(size),
  ] as const;
  const seenAll = new Uint32Array(size);
  const stackAll = new Int32Array(size);
  let mark = 0;
  const newMark = (): number => {
    if (mark === 0xffffffff) {
      seenAll.fill(0);
      mark = 0;
    }
    return ++mark;
  };

  const seedsAll = new Int32Array(size);

  return function longestMatches(text, longest, from = 0, to = text.length) {
    // Locals, not closure slots, in the hot loop.
    const op = program.op;
    const arg = program.arg;
    const alt = program.alt;
    const seen = seenAll;
    const stack = stackAll;
    const seeds = seedsAll;
    const canStart = latin1;
    let curPc = buffers[0];
    let curEnd = buffers[1];
    let nextPc = buffers[2];
    let nextEnd = buffers[3];
    const n = text.length;
    let steps = 0;
    let count = 0;
    for (let p = to; p >= from; p--) {
      if (count === 0) {
        // No live thread: skip, one table lookup each, the Latin-1 units no thread can start at.
        while (p > from) {
          const u = text.charCodeAt(p - 1);
          if (u > 0xff || canStart[u] !== 0) break;
          steps++;
          p--;
        }
        if (p === from) break;
      }
      const m = newMark();
      const c = p > from ? text.charCodeAt(p - 1) : -1;
      const f = p > from ? foldUnit(c) : -1;
      // New threads for matches ending at p (their reading instructions, precomputed), after the others.
      let seedCount = 0;
      if (p > from) {
        steps++;
        let bits = p === n ? SEED_AT_END : 0;
        if (usesBoundary && isWordBefore(text, p) !== isWordAt(text, p)) bits |= SEED_AT_BOUNDARY;
        const table = tables[bits]!;
        const byUnit = table.byUnit.get(f);
        if (byUnit) for (let k = 0; k < byUnit.length; k++) seeds[seedCount++] = byUnit[k]!;
        for (const group of table.byClass) {
          steps++;
          if (classMatches(group.cls, c, f))
            for (let k = 0; k < group.pcs.length; k++) seeds[seedCount++] = group.pcs[k]!;
        }
        if (!isLineTerminator(c))
          for (let k = 0; k < table.any.length; k++) seeds[seedCount++] = table.any[k]!;
      }
      let nextCount = 0;
      for (let t = 0; t < count + seedCount; t++) {
        steps++;
        const seeded = t >= count;
        const pc = seeded ? seeds[t - count]! : curPc[t]!;
        const end = seeded ? p : curEnd[t]!;
        const o = op[pc]!;
        if (o === OP_MATCH) {
          if (end > p && end > longest[p]!) longest[p] = end;
          continue;
        }
        if (p === from) continue;
        if (!seeded) {
          const reads =
            o === OP_CHAR
              ? arg[pc] === f
              : o === OP_ANY
                ? !isLineTerminator(c)
                : classMatches(classes[arg[pc]!]!, c, f);
          if (!reads) continue;
        }
        // Follow pc + 1 and everything it reaches without reading, at offset p - 1.
        if (seen[pc + 1] === m) continue;
        seen[pc + 1] = m;
        stack[0] = pc + 1;
        let sp = 1;
        while (sp > 0) {
          const q = stack[--sp]!;
          steps++;
          const oq = op[q]!;
          if (oq === OP_JMP || oq === OP_SPLIT) {
            const first = arg[q]!;
            if (oq === OP_SPLIT && seen[alt[q]!] !== m) {
              seen[alt[q]!] = m;
              stack[sp++] = alt[q]!;
            }
            if (seen[first] !== m) {
              seen[first] = m;
              stack[sp++] = first;
            }
          } else if (oq === OP_ASSERT) {
            if (holds(arg[q]!, text, p - 1) && seen[q + 1] !== m) {
              seen[q + 1] = m;
              stack[sp++] = q + 1;
            }
          } else {
            nextPc[nextCount] = q;
            nextEnd[nextCount] = end;
            nextCount++;
          }
        }
      }
      const pcs = curPc;
      const ends = curEnd;
      curPc = nextPc;
      curEnd = nextEnd;
      nextPc = pcs;
      nextEnd = ends;
      count = nextCount;
    }
    return steps;
  };
}

function holds(kind: number, text: string, pos: number): boolean {
  if (kind === ASSERT_START) return pos === 0;
  if (kind === ASSERT_END) return pos === text.length;
  const boundary = isWordBefore(text, pos) !== isWordAt(text, pos);
  return kind === ASSERT_WORD ? boundary : !boundary;
}
