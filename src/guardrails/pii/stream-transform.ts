/** What a streaming redactor or restorer is: text pieces in, safe text out, the rest at the end. */
export interface StreamTransform {
  /** The next piece of text in; what is now safe to pass on out. */
  push(text: string): string;
  /** The end of the text: everything still held, transformed. */
  flush(): string;
  /** Spans replaced (or restored) so far. */
  readonly findings: number;
}
