import { describe, expect, it } from 'vitest';
import { asciiBytes, emptySpan, objectShaped, scanKeys, splitEvent, stringEnd } from '../../../src/sse/scan';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array, s: number, e: number) => new TextDecoder().decode(b.subarray(s, e));

describe('splitEvent', () => {
  it('finds the data and event values, with LF or CRLF lines, in either order', () => {
    for (const text of ['event: x\ndata: {"a":1}\n\n', 'data:{"a":1}\r\nevent:x\r\n\r\n']) {
      const span = emptySpan();
      const bytes = enc(text);
      expect(splitEvent(bytes, span)).toBe(true);
      expect(dec(bytes, span.dataStart, span.dataEnd)).toBe('{"a":1}');
      expect(dec(bytes, span.nameStart, span.nameEnd)).toBe('x');
    }
  });

  it('leaves to the full parser any other shape', () => {
    for (const text of [
      ': ping\n\n',
      'data: a\ndata: b\n\n',
      'id: 1\ndata: {}\n\n',
      'event: x\n\n',
      'data: {}\n',
    ])
      expect(splitEvent(enc(text), emptySpan())).toBe(false);
  });
});

describe('objectShaped', () => {
  it('accepts {…} with surrounding space and nothing else', () => {
    const shaped = (s: string) => objectShaped(enc(s), 0, s.length);
    expect(shaped(' {"a":1} ')).toBe(true);
    for (const s of ['[DONE]', '{"a":', '', '{', '"{}"']) expect(shaped(s)).toBe(false);
  });
});

describe('scanKeys and stringEnd', () => {
  it('finds keys, not text that looks like them, and skips string values whole', () => {
    const text = '{"content":"say \\"usage\\": 1, \\\\","usage" : null,"x":{"error":{}}}';
    const bytes = enc(text);
    const found: string[] = [];
    scanKeys(bytes, 0, bytes.length, ['content', 'usage', 'error'].map(asciiBytes), (key, at) => {
      found.push(`${key}@${text[at]}`);
      return bytes[at] === 34 ? stringEnd(bytes, at, bytes.length) : at;
    });
    expect(found).toEqual(['0@"', '1@n', '2@{']);
    expect(JSON.parse(text).content).toBe('say "usage": 1, \\');
  });
});
