/**
 * OpenAI's byte-level fast path (src/sse/byte-observer.ts): a chunk is plain unless it holds a
 * `usage` that is not null or an `error`; `content` and `arguments` values are counted from bytes.
 */
import { byteScanner } from '../../sse/byte-observer';
import type { StreamObserver } from '../../sse/observer';
import { asciiBytes, bytesAre } from '../../sse/scan';
import { openAiObserver } from './observer';

const NULL = asciiBytes('null');
/** Keys 0–1 are counted as delivered text, 2–3 send the event to the full observer. */
const OPENAI_KEYS = ['content', 'arguments', 'usage', 'error'].map(asciiBytes);

export function openAiByteObserver(options: { stripUsage: boolean }): StreamObserver {
  const full = openAiObserver(options);
  const scan = byteScanner();
  let flagged = false;
  const onKey = (key: number, at: number, bytes: Uint8Array, end: number): number => {
    if (key < 2) return scan.count(bytes, at, end);
    if (key === 3 || !startsWithNull(bytes, at, end)) flagged = true;
    return at;
  };
  return scan.observer(full, (bytes, span) => {
    if (span.nameStart !== -1) return false;
    flagged = false;
    scan.keys(bytes, span.dataStart, span.dataEnd, OPENAI_KEYS, onKey);
    return !flagged;
  });
}

function startsWithNull(bytes: Uint8Array, at: number, end: number): boolean {
  return end - at >= NULL.length && bytesAre(bytes, at, at + NULL.length, NULL);
}
