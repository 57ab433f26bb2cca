/**
 * Where new threads start, precomputed. At every offset the Pike VM starts a
 * thread at the program's entry; following its epsilon closure there would cost
 * a walk of every pattern's first instructions at every offset. Instead the
 * closure is computed once per outcome of the assertions it can meet (at the
 * end of the text or not, at a word boundary or not), and its reading
 * instructions are indexed by the code unit they read (literals) or grouped by
 * identical class, so starting threads at an offset costs one lookup plus one
 * test per distinct class. A Latin-1 table says which code units could start a
 * thread at all, under any assertion outcome, so the VM skips the others with one
 * lookup while no thread is live.
 */
import { foldUnit, isLineTerminator } from '../chars';
import { type CompiledClass, classKey, classMatches } from './char-class';
import {
  ASSERT_END,
  ASSERT_NOT_WORD,
  ASSERT_START,
  ASSERT_WORD,
  OP_ANY,
  OP_ASSERT,
  OP_CHAR,
  OP_CLASS,
  OP_JMP,
  OP_SPLIT,
  type Program,
} from './compile';

export interface SeedTable {
  /** Reading instructions of the entry closure that read one folded code unit, by that unit. */
  readonly byUnit: ReadonlyMap<number, Int32Array>;
  /** Class instructions of the entry closure, one group per distinct class. */
  readonly byClass: readonly { readonly cls: CompiledClass; readonly pcs: Int32Array }[];
  /** `.` instructions of the entry closure. */
  readonly any: Int32Array;
}

export const SEED_AT_END = 1;
export const SEED_AT_BOUNDARY = 2;

export interface Seeds {
  /** Indexed by SEED_AT_* bits. A thread never starts at offset 0 (it must read a unit first). */
  readonly tables: readonly SeedTable[];
  /** Whether the entry closure meets a word-boundary assertion (else the boundary bit is irrelevant). */
  readonly usesBoundary: boolean;
  /** Per code unit below 256: 1 when some table starts a thread there, 0 when none does. */
  readonly latin1: Uint8Array;
}

export function buildSeeds(program: Program): Seeds {
  let usesBoundary = false;
  const tables: SeedTable[] = [];
  for (let bits = 0; bits < 4; bits++) {
    const seen = new Uint8Array(program.op.length);
    const units = new Map<number, number[]>();
    const classes = new Map<string, { cls: CompiledClass; pcs: number[] }>();
    const any: number[] = [];
    const stack = [0];
    seen[0] = 1;
    const push = (pc: number) => {
      if (seen[pc] === 0) {
        seen[pc] = 1;
        stack.push(pc);
      }
    };
    while (stack.length > 0) {
      const pc = stack.pop()!;
      const op = program.op[pc]!;
      const arg = program.arg[pc]!;
      if (op === OP_JMP) push(arg);
      else if (op === OP_SPLIT) {
        push(arg);
        push(program.alt[pc]!);
      } else if (op === OP_ASSERT) {
        if (arg === ASSERT_WORD || arg === ASSERT_NOT_WORD) usesBoundary = true;
        if (holds(arg, bits)) push(pc + 1);
      } else if (op === OP_CHAR) units.set(arg, [...(units.get(arg) ?? []), pc]);
      else if (op === OP_CLASS) {
        const cls = program.classes[arg]!;
        const group = classes.get(classKey(cls)) ?? { cls, pcs: [] };
        group.pcs.push(pc);
        classes.set(classKey(cls), group);
      } else if (op === OP_ANY) any.push(pc);
    }
    tables.push({
      byUnit: new Map([...units].map(([unit, pcs]) => [unit, Int32Array.from(pcs)])),
      byClass: [...classes.values()].map(({ cls, pcs }) => ({ cls, pcs: Int32Array.from(pcs) })),
      any: Int32Array.from(any),
    });
  }
  const latin1 = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    const f = foldUnit(c);
    const starts = (table: SeedTable) =>
      table.byUnit.has(f) ||
      table.byClass.some((group) => classMatches(group.cls, c, f)) ||
      (table.any.length > 0 && !isLineTerminator(c));
    latin1[c] = tables.some(starts) ? 1 : 0;
  }
  return { tables, usesBoundary, latin1 };
}

function holds(kind: number, bits: number): boolean {
  if (kind === ASSERT_START) return false;
  if (kind === ASSERT_END) return (bits & SEED_AT_END) !== 0;
  const boundary = (bits & SEED_AT_BOUNDARY) !== 0;
  return kind === ASSERT_WORD ? boundary : !boundary;
}
