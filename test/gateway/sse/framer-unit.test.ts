import { describe, expect, it } from 'vitest';
import { SseFramer } from '../../../src/sse/framer';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => new TextDecoder().decode(b);

describe('SseFramer', () => {
  it('returns whole events and keeps the partial tail for the next chunk', () => {
    const framer = new SseFramer();
    const first = framer.push(enc('data: {"a":1}\n\ndata: {"b"'));
    expect(first.map((f) => f.event.data)).toEqual(['{"a":1}']);
    const second = framer.push(enc(':2}\n\n'));
    expect(second.map((f) => f.event.data)).toEqual(['{"b":2}']);
    expect(dec(second[0]!.bytes)).toBe('data: {"b":2}\n\n');
    expect(framer.remainder.byteLength).toBe(0);
  });

  it('reads event names, multi-line data and CRLF line endings', () => {
    const framer = new SseFramer();
    const frames = framer.push(enc('event: message_start\r\ndata: {"x":\r\ndata: 1}\r\n\r\n: comment\n\n'));
    expect(frames[0]!.event).toEqual({ event: 'message_start', data: '{"x":\n1}' });
    expect(frames[1]!.event).toEqual({ event: null, data: '' });
  });

  it('splits an event delivered one byte at a time', () => {
    const framer = new SseFramer();
    const bytes = enc('data: hello\n\n');
    const frames = [...bytes].flatMap((b) => framer.push(new Uint8Array([b])));
    expect(frames.map((f) => f.event.data)).toEqual(['hello']);
  });

  it('keeps multi-byte UTF-8 characters split across chunks intact', () => {
    const framer = new SseFramer();
    const bytes = enc('data: héllo 🌍\n\n');
    const frames = [...framer.push(bytes.subarray(0, 8)), ...framer.push(bytes.subarray(8))];
    expect(frames[0]!.event.data).toBe('héllo 🌍');
  });
});
