/**
 * Fuzzed bodies are templates: text with directives between NUL marks for the
 * parts that are large or not text at all — `R:<count>:<unit>` repeats a unit
 * (huge strings, deep nesting), `B:<hex>` inserts raw bytes (bad UTF-8). A
 * case stays a few hundred bytes in memory and readable when printed, and is
 * expanded only when sent. Shared by the vitest suite and bench/fuzz.mjs.
 */

const MARK = '\u0000';

export const repeat = (count: number, unit: string) => `${MARK}R:${count}:${unit}${MARK}`;
export const bytes = (values: readonly number[]) =>
  `${MARK}B:${values.map((b) => b.toString(16).padStart(2, '0')).join('')}${MARK}`;

/** The body's bytes: text as UTF-8, directives expanded. */
export function materialize(template: string): Uint8Array {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  const segments = template.split(MARK);
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i] ?? '';
    if (i % 2 === 0) {
      parts.push(encoder.encode(segment));
    } else if (segment.startsWith('R:')) {
      const colon = segment.indexOf(':', 2);
      parts.push(encoder.encode(segment.slice(colon + 1).repeat(Number(segment.slice(2, colon)))));
    } else if (segment.startsWith('B:')) {
      const hex = segment.slice(2);
      const out = new Uint8Array(hex.length / 2);
      for (let j = 0; j < out.length; j++) out[j] = Number.parseInt(hex.slice(2 * j, 2 * j + 2), 16);
      parts.push(out);
    }
  }
  let total = 0;
  for (const p of parts) total += p.byteLength;
  const body = new Uint8Array(total);
  let offset = 0;
  for (const p of parts) {
    body.set(p, offset);
    offset += p.byteLength;
  }
  return body;
}

/** A body delivered in pieces with no content-length (chunked transfer). */
export function chunkedStream(body: Uint8Array, pieceBytes = 16_384): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(controller) {
      if (offset >= body.byteLength) return controller.close();
      controller.enqueue(body.slice(offset, offset + pieceBytes));
      offset += pieceBytes;
    },
  });
}
