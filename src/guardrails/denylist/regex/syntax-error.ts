/**
 * Why a pattern is refused, and where: a 0-based offset into the pattern source.
 * The parser throws `PatternSyntaxError` internally and hands back a
 * `PatternError` value, so callers never catch.
 */

export interface PatternError {
  readonly message: string;
  readonly position: number;
}

export class PatternSyntaxError extends Error {
  constructor(
    message: string,
    readonly position: number,
  ) {
    super(message);
  }
}
