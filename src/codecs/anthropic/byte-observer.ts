/**
 * Anthropic's byte-level fast path (src/sse/byte-observer.ts): content block events and pings are
 * plain, read from their bytes; message events (usage, the terminator) and errors go to the full observer.
 */
import { byteScanner } from '../../sse/byte-observer';
import type { StreamObserver } from '../../sse/observer';
import { asciiBytes, bytesAre } from '../../sse/scan';
import { anthropicObserver } from './observer';

const TEXT_KEYS = ['text', 'partial_json', 'thinking'].map(asciiBytes);
const CONTENT_BLOCK_DELTA = asciiBytes('content_block_delta');
/** Events that carry no usage, terminator or error: read from their bytes alone. */
const PLAIN = [CONTENT_BLOCK_DELTA, ...['content_block_start', 'content_block_stop', 'ping'].map(asciiBytes)];

export function anthropicByteObserver(): StreamObserver {
  const full = anthropicObserver();
  const scan = byteScanner();
  const onKey = (_key: number, at: number, bytes: Uint8Array, end: number) => scan.count(bytes, at, end);
  return scan.observer(full, (bytes, span) => {
    const { nameStart: s, nameEnd: e } = span;
    if (s === -1 || !PLAIN.some((name) => bytesAre(bytes, s, e, name))) return false;
    if (bytesAre(bytes, s, e, CONTENT_BLOCK_DELTA))
      scan.keys(bytes, span.dataStart, span.dataEnd, TEXT_KEYS, onKey);
    return true;
  });
}
