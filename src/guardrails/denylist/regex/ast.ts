/**
 * The parsed form of a deny-list pattern, and what can be read off it without
 * running it: the longest text it can match and whether it can match nothing.
 * Literal code units are stored as written (the compiler folds them); positions
 * are 0-based offsets into the pattern source, for error messages.
 */

/** Built-in classes usable alone (`\d`) or inside brackets (`[\d_]`). */
export const PRED_DIGIT = 1;
export const PRED_NOT_DIGIT = 2;
export const PRED_WORD = 4;
export const PRED_NOT_WORD = 8;
export const PRED_SPACE = 16;
export const PRED_NOT_SPACE = 32;

export interface ClassSpec {
  /** Inclusive [lo, hi] pairs of code units, as written (folded when compiled). */
  readonly ranges: number[];
  /** PRED_* bits. */
  preds: number;
  negated: boolean;
}

export type AssertKind = 'start' | 'end' | 'word' | 'not-word';

export type Node =
  | { readonly type: 'empty' }
  | { readonly type: 'char'; readonly unit: number }
  | { readonly type: 'any' }
  | { readonly type: 'class'; readonly spec: ClassSpec }
  | { readonly type: 'assert'; readonly kind: AssertKind }
  | { readonly type: 'concat'; readonly items: readonly Node[] }
  | { readonly type: 'alt'; readonly items: readonly Node[] }
  | {
      readonly type: 'repeat';
      readonly body: Node;
      readonly min: number;
      /** Infinity for `*`, `+` and `{m,}`. */
      readonly max: number;
      /** Where the quantifier is written. */
      readonly pos: number;
    };

/** The longest match in code units; Infinity when a repeat is unbounded. */
export function maxMatchLength(node: Node): number {
  switch (node.type) {
    case 'empty':
    case 'assert':
      return 0;
    case 'char':
    case 'any':
    case 'class':
      return 1;
    case 'concat':
      return node.items.reduce((sum, item) => sum + maxMatchLength(item), 0);
    case 'alt':
      return node.items.reduce((most, item) => Math.max(most, maxMatchLength(item)), 0);
    case 'repeat': {
      if (node.max === 0) return 0;
      const body = maxMatchLength(node.body);
      if (body === 0) return 0;
      return node.max === Number.POSITIVE_INFINITY ? node.max : body * node.max;
    }
  }
}

/** Whether the pattern can match the empty string (assertions count as empty). */
export function matchesEmpty(node: Node): boolean {
  switch (node.type) {
    case 'empty':
    case 'assert':
      return true;
    case 'char':
    case 'any':
    case 'class':
      return false;
    case 'concat':
      return node.items.every(matchesEmpty);
    case 'alt':
      return node.items.some(matchesEmpty);
    case 'repeat':
      return node.min === 0 || matchesEmpty(node.body);
  }
}
