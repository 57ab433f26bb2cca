/**
 * Character classes, compiled for case-insensitive matching: the members'
 * ranges are replaced by their case-folded image (sorted, merged, in a typed
 * array), so a text code unit is tested by folding it once and searching the
 * ranges. Built-in classes (\d \w \s and their negations) are tested on the
 * unfolded code unit.
 */
import { foldUnit, isDigitUnit, isSpaceUnit, isWordUnit } from '../chars';
import {
  type ClassSpec,
  PRED_DIGIT,
  PRED_NOT_DIGIT,
  PRED_NOT_SPACE,
  PRED_NOT_WORD,
  PRED_SPACE,
  PRED_WORD,
} from './ast';

export interface CompiledClass {
  /** Inclusive [lo, hi] pairs of folded code units, sorted and disjoint. */
  readonly ranges: Uint16Array;
  readonly preds: number;
  readonly negated: boolean;
}

export function compileClass(spec: ClassSpec): CompiledClass {
  // A range plus the folded images that fall outside it: testing fold(c) against
  // this set is testing against the folded range, because folding is idempotent.
  const pairs: number[] = [];
  for (let k = 0; k < spec.ranges.length; k += 2) {
    const lo = spec.ranges[k]!;
    const hi = spec.ranges[k + 1]!;
    pairs.push(lo, hi);
    for (let u = lo; u <= hi; u++) {
      const f = foldUnit(u);
      if (f < lo || f > hi) pairs.push(f, f);
    }
  }
  return { ranges: mergeRanges(pairs), preds: spec.preds, negated: spec.negated };
}

function mergeRanges(pairs: number[]): Uint16Array {
  const order: [number, number][] = [];
  for (let k = 0; k < pairs.length; k += 2) order.push([pairs[k]!, pairs[k + 1]!]);
  order.sort((a, b) => a[0] - b[0]);
  const merged: number[] = [];
  for (const [lo, hi] of order) {
    const last = merged.length - 1;
    if (last > 0 && lo <= merged[last]! + 1) merged[last] = Math.max(merged[last]!, hi);
    else merged.push(lo, hi);
  }
  return Uint16Array.from(merged);
}

function inRanges(ranges: Uint16Array, f: number): boolean {
  let lo = 0;
  let hi = (ranges.length >> 1) - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (f < ranges[2 * mid]!) hi = mid - 1;
    else if (f > ranges[2 * mid + 1]!) lo = mid + 1;
    else return true;
  }
  return false;
}

function inPreds(preds: number, c: number): boolean {
  if (preds === 0) return false;
  if ((preds & PRED_DIGIT) !== 0 && isDigitUnit(c)) return true;
  if ((preds & PRED_NOT_DIGIT) !== 0 && !isDigitUnit(c)) return true;
  if ((preds & PRED_WORD) !== 0 && isWordUnit(c)) return true;
  if ((preds & PRED_NOT_WORD) !== 0 && !isWordUnit(c)) return true;
  if ((preds & PRED_SPACE) !== 0 && isSpaceUnit(c)) return true;
  return (preds & PRED_NOT_SPACE) !== 0 && !isSpaceUnit(c);
}

/** Whether code unit `c` (whose fold is `f`) is in the class. */
export function classMatches(cls: CompiledClass, c: number, f: number): boolean {
  return (inRanges(cls.ranges, f) || inPreds(cls.preds, c)) !== cls.negated;
}

/** A key equal for classes that match the same code units. */
export const classKey = (cls: CompiledClass): string =>
  `${cls.negated ? '^' : ''}${cls.preds}:${cls.ranges.join(',')}`;
