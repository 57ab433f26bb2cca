/**
 * The Pike VM: a breadth-first simulation of the compiled NFA that never
 * backtracks, so its work is O(text length × program size) whatever the
 * pattern. It runs the backward program from the end of the text to its start,
 * starting a thread at every offset where a match could end; each thread carries
 * the offset where its (forward) match ends. Threads are kept in order of that
 * end, farthest first, and a program counter reached twice at one offset keeps
 * only its first thread, so when a thread reaches MATCH at offset p its end is
 * the end of the longest match that starts at p.
 *
 * Buffers are sized to the program and allocated once per compiled program; a
 * run allocates nothing.
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
  OP_CLASS,
  OP_JMP,
  OP_MATCH,
  OP_SPLIT,
  type Program,
} from './compile';

/** Fills `longest[p]` (when larger) with the end of the longest match starting at p; returns the work done. */
export type LongestMatches = (text: string, longest: Int32Array) => number;

export function pikeVm(program: Program): LongestMatches {
  const { op, arg, alt, classes } = program;
  const { tables, usesBoundary } = buildSeeds(program);
  const size = op.length;
  let curPc = new Int32Array(size);
  let curEnd = new Int32Array(size);
  let nextPc = new Int32Array(size);
  let nextEnd = new Int32Array(size);
  const seen = new Uint32Array(size);
  const stack = new Int32Array(size);
  let mark = 0;
  const newMark = (): number => {
    if (mark === 0xffffffff) {
      seen.fill(0);
      mark = 0;
    }
    return ++mark;
  };

  return function longestMatches(text, longest) {
    let steps = 0;
    const n = text.length;

    const holds = (kind: number, pos: number): boolean => {
      if (kind === ASSERT_START) return pos === 0;
      if (kind === ASSERT_END) return pos === n;
      const boundary = isWordBefore(text, pos) !== isWordAt(text, pos);
      return kind === ASSERT_WORD ? boundary : !boundary;
    };

    // Adds the thread at `pc0` and everything it reaches without reading (its closure at `pos`).
    const add = (pcs: Int32Array, ends: Int32Array, count: number, pc0: number, end: number, pos: number) => {
      if (seen[pc0] === mark) return count;
      seen[pc0] = mark;
      stack[0] = pc0;
      let sp = 1;
      while (sp > 0) {
        const pc = stack[--sp]!;
        steps++;
        const o = op[pc]!;
        if (o === OP_JMP || o === OP_SPLIT || o === OP_ASSERT) {
          if (o === OP_ASSERT && !holds(arg[pc]!, pos)) continue;
          // SPLIT's second target is pushed first so its first is explored first.
          if (o === OP_SPLIT && seen[alt[pc]!] !== mark) {
            seen[alt[pc]!] = mark;
            stack[sp++] = alt[pc]!;
          }
          const target = o === OP_ASSERT ? pc + 1 : arg[pc]!;
          if (seen[target] !== mark) {
            seen[target] = mark;
            stack[sp++] = target;
          }
        } else {
          pcs[count] = pc;
          ends[count] = end;
          count++;
        }
      }
      return count;
    };

    const readsAt = (pc: number, c: number, f: number): boolean => {
      const o = op[pc]!;
      if (o === OP_CHAR) return arg[pc] === f;
      if (o === OP_ANY) return !isLineTerminator(c);
      return o === OP_CLASS && classMatches(classes[arg[pc]!]!, c, f);
    };

    let count = 0;
    for (let p = n; p >= 0; p--) {
      newMark();
      let nextCount = 0;
      const c = p > 0 ? text.charCodeAt(p - 1) : -1;
      const f = p > 0 ? foldUnit(c) : -1;
      for (let t = 0; t < count; t++) {
        const pc = curPc[t]!;
        steps++;
        if (op[pc] === OP_MATCH) {
          const end = curEnd[t]!;
          if (end > p && end > longest[p]!) longest[p] = end;
        } else if (p > 0 && readsAt(pc, c, f)) {
          nextCount = add(nextPc, nextEnd, nextCount, pc + 1, curEnd[t]!, p - 1);
        }
      }
      if (p > 0) {
        steps++;
        // New threads for matches ending at p, after the others: their end is the nearest.
        let bits = p === n ? SEED_AT_END : 0;
        if (usesBoundary && isWordBefore(text, p) !== isWordAt(text, p)) bits |= SEED_AT_BOUNDARY;
        const table = tables[bits]!;
        const byUnit = table.byUnit.get(f);
        if (byUnit) for (const pc of byUnit) nextCount = add(nextPc, nextEnd, nextCount, pc + 1, p, p - 1);
        for (const group of table.byClass) {
          steps++;
          if (!classMatches(group.cls, c, f)) continue;
          for (const pc of group.pcs) nextCount = add(nextPc, nextEnd, nextCount, pc + 1, p, p - 1);
        }
        if (table.any.length > 0 && !isLineTerminator(c))
          for (const pc of table.any) nextCount = add(nextPc, nextEnd, nextCount, pc + 1, p, p - 1);
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
