/**
 * Compiles pattern ASTs into one Thompson-NFA program (typed arrays) for the
 * Pike VM in pike.ts. The program reads the text backwards: concatenations are
 * emitted in reverse, so a run from the end of the text to its start finds, for
 * every start offset, the longest match beginning there. Bounded repeats are
 * unrolled, which is why a pattern's size is checked before it is emitted.
 */
import { foldUnit } from '../chars';
import type { AssertKind, Node } from './ast';
import { type CompiledClass, compileClass } from './char-class';
import { PatternSyntaxError } from './syntax-error';

export const OP_CHAR = 0;
export const OP_ANY = 1;
export const OP_CLASS = 2;
export const OP_SPLIT = 3;
export const OP_JMP = 4;
export const OP_ASSERT = 5;
export const OP_MATCH = 6;

export const ASSERT_START = 0;
export const ASSERT_END = 1;
export const ASSERT_WORD = 2;
export const ASSERT_NOT_WORD = 3;
const ASSERTS: Record<AssertKind, number> = { start: 0, end: 1, word: 2, 'not-word': 3 };

/** Instructions one pattern may compile to; bounded repeats multiply what they repeat. */
export const MAX_PROGRAM_SIZE = 256;

export interface Program {
  /** OP_* per instruction. Consuming instructions and asserts continue at pc + 1. */
  readonly op: Uint8Array;
  /** CHAR: folded code unit; CLASS: class index; ASSERT: ASSERT_*; JMP and SPLIT: first target. */
  readonly arg: Int32Array;
  /** SPLIT: second target. */
  readonly alt: Int32Array;
  readonly classes: readonly CompiledClass[];
}

/** The number of instructions `node` compiles to; throws (at the repeat to blame) above `cap`. */
export function programSize(node: Node, cap = MAX_PROGRAM_SIZE): number {
  const size = sizeOf(node, cap);
  if (size + 1 > cap) throw tooBig(firstRepeat(node), cap);
  return size + 1;
}

function sizeOf(node: Node, cap: number): number {
  switch (node.type) {
    case 'empty':
      return 0;
    case 'char':
    case 'any':
    case 'class':
    case 'assert':
      return 1;
    case 'concat':
    case 'alt': {
      let sum = node.type === 'alt' ? 2 * (node.items.length - 1) : 0;
      for (const item of node.items) {
        sum += sizeOf(item, cap);
        if (sum > cap) throw tooBig(firstRepeat(item), cap);
      }
      return sum;
    }
    case 'repeat': {
      const body = sizeOf(node.body, cap);
      const { min, max } = node;
      const size =
        max === Infinity ? (min === 0 ? body + 2 : min * body + 1) : min * body + (max - min) * (body + 1);
      if (size > cap) throw tooBig(node.pos, cap);
      return size;
    }
  }
}

const tooBig = (pos: number, cap: number) =>
  new PatternSyntaxError(
    `the pattern needs more than ${cap} instructions (repeats multiply what they repeat)`,
    pos,
  );

function firstRepeat(node: Node): number {
  if (node.type === 'repeat') return node.pos;
  if (node.type === 'concat' || node.type === 'alt') {
    for (const item of node.items) {
      const pos = firstRepeat(item);
      if (pos > 0) return pos;
    }
  }
  return 0;
}

/** One program matching any of `nodes` (an alternation), reading backwards. */
export function compileProgram(nodes: readonly Node[]): Program {
  const op: number[] = [];
  const arg: number[] = [];
  const alt: number[] = [];
  const classes: CompiledClass[] = [];
  const emit = (o: number, a = 0, b = 0): number => {
    op.push(o);
    arg.push(a);
    alt.push(b);
    return op.length - 1;
  };

  const gen = (node: Node): void => {
    switch (node.type) {
      case 'empty':
        return;
      case 'char':
        emit(OP_CHAR, foldUnit(node.unit));
        return;
      case 'any':
        emit(OP_ANY);
        return;
      case 'class':
        classes.push(compileClass(node.spec));
        emit(OP_CLASS, classes.length - 1);
        return;
      case 'assert':
        emit(OP_ASSERT, ASSERTS[node.kind]);
        return;
      case 'concat':
        for (let k = node.items.length - 1; k >= 0; k--) gen(node.items[k]!);
        return;
      case 'alt':
        genAlternation(node.items);
        return;
      case 'repeat': {
        const { body, min, max } = node;
        for (let k = 0; k < min - (max === Infinity && min > 0 ? 1 : 0); k++) gen(body);
        if (max === Infinity && min > 0) {
          const loop = op.length;
          gen(body);
          const split = emit(OP_SPLIT, loop);
          alt[split] = op.length;
        } else if (max === Infinity) {
          const split = emit(OP_SPLIT, op.length + 1);
          gen(body);
          emit(OP_JMP, split);
          alt[split] = op.length;
        } else {
          const splits: number[] = [];
          for (let k = min; k < max; k++) {
            splits.push(emit(OP_SPLIT, op.length + 1));
            gen(body);
          }
          for (const split of splits) alt[split] = op.length;
        }
        return;
      }
    }
  };

  const genAlternation = (items: readonly Node[]): void => {
    const jumps: number[] = [];
    for (let k = 0; k < items.length - 1; k++) {
      const split = emit(OP_SPLIT, op.length + 1);
      gen(items[k]!);
      jumps.push(emit(OP_JMP));
      alt[split] = op.length;
    }
    gen(items[items.length - 1]!);
    for (const jump of jumps) arg[jump] = op.length;
  };

  if (nodes.length === 1) gen(nodes[0]!);
  else genAlternation(nodes);
  emit(OP_MATCH);
  return {
    op: Uint8Array.from(op),
    arg: Int32Array.from(arg),
    alt: Int32Array.from(alt),
    classes,
  };
}
