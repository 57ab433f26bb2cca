import { describe, expect, it, vi } from 'vitest';
import { type SseFrame, SseFramer } from '../../../src/sse/framer';

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
    expect(framer.pendingBytes).toBe(0);
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

describe('SseFramer line endings across chunks', () => {
  it('finds a CRLF blank line split between chunks at every position', () => {
    const text = 'data: a\r\n\r\ndata: b\r\n\r\n';
    const bytes = enc(text);
    for (let cut = 1; cut < bytes.byteLength; cut++) {
      const framer = new SseFramer();
      const frames = [...framer.push(bytes.subarray(0, cut)), ...framer.push(bytes.subarray(cut))];
      expect(frames.map((f) => f.event.data)).toEqual(['a', 'b']);
      expect(frames.map((f) => dec(f.bytes)).join('')).toBe(text);
      expect(framer.pendingBytes).toBe(0);
    }
  });

  it('skips keep-alive blank lines between events, LF or CRLF', () => {
    const framer = new SseFramer();
    const frames = [
      ...framer.push(enc('\n\r\n')),
      ...framer.push(enc('\r')),
      ...framer.push(enc('\ndata: x\n\n')),
    ];
    expect(frames.map((f) => dec(f.bytes))).toEqual(['data: x\n\n']);
  });

  it('copies an event split across many chunks only once, byte for byte', () => {
    const event = `data: ${'y'.repeat(5000)}\n\n`;
    const bytes = enc(event + event);
    const framer = new SseFramer();
    const frames: string[] = [];
    for (let at = 0; at < bytes.byteLength; at += 333)
      frames.push(...framer.push(bytes.subarray(at, at + 333)).map((f) => dec(f.bytes)));
    expect(frames).toEqual([event, event]);
  });
});

describe('SseFramer size cap', () => {
  it('relays an event exactly at the cap', () => {
    const event = enc(`data: ${'z'.repeat(100 - 8)}\n\n`);
    expect(event.byteLength).toBe(100);
    const framer = new SseFramer(100);
    expect(framer.push(event)).toHaveLength(1);
    expect(framer.tooLarge).toBe(false);
  });

  it('stops once an unfinished event grows past the cap, keeping the events before it', () => {
    const framer = new SseFramer(100);
    const frames = framer.push(enc(`data: ok\n\ndata: ${'z'.repeat(60)}`));
    expect(frames.map((f) => f.event.data)).toEqual(['ok']);
    expect(framer.tooLarge).toBe(false);
    expect(framer.push(enc('z'.repeat(60)))).toEqual([]);
    expect(framer.tooLarge).toBe(true);
    expect(framer.push(enc('\n\ndata: later\n\n'))).toEqual([]);
  });

  it('stops on a complete event larger than the cap that arrives in one chunk', () => {
    const framer = new SseFramer(100);
    expect(framer.push(enc(`data: ${'z'.repeat(200)}\n\n`))).toEqual([]);
    expect(framer.tooLarge).toBe(true);
  });
});

describe('SseFramer work is linear in the bytes pushed', () => {
  /** Counts bytes the framer scans (indexOf spans) and copies (set, slice) while `run` runs. */
  function measureWork(run: () => void): { scanned: number; copied: number } {
    const work = { scanned: 0, copied: 0 };
    const proto = Uint8Array.prototype;
    const indexOf = proto.indexOf;
    const set = proto.set;
    const slice = proto.slice;
    const spies = [
      vi.spyOn(proto, 'indexOf').mockImplementation(function (this: Uint8Array, value: number, from = 0) {
        const found = indexOf.call(this, value, from);
        work.scanned += (found === -1 ? this.byteLength : found + 1) - from;
        return found;
      }),
      vi.spyOn(proto, 'set').mockImplementation(function (this: Uint8Array, source: ArrayLike<number>, at) {
        work.copied += source.length;
        return set.call(this, source, at);
      }),
      vi.spyOn(proto, 'slice').mockImplementation(function (this: Uint8Array, start?: number, end?: number) {
        const out = slice.call(this, start, end);
        work.copied += out.byteLength;
        return out;
      }),
    ];
    try {
      run();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
    return work;
  }

  it('frames one 16 MiB event fed in 1 KiB chunks scanning and copying each byte at most twice', () => {
    const size = 16 * 1024 * 1024;
    const event = new Uint8Array(size).fill(0x78);
    event.set(enc('data: '), 0);
    event.set(enc('\n\n'), size - 2);
    const framer = new SseFramer(32 * 1024 * 1024);
    const frames: SseFrame[] = [];
    const work = measureWork(() => {
      for (let at = 0; at < size; at += 1024) frames.push(...framer.push(event.subarray(at, at + 1024)));
    });
    expect(frames).toHaveLength(1);
    expect(frames[0]!.bytes.byteLength).toBe(size);
    // Every byte is looked at (so the count is real), and none is rescanned or re-copied per chunk.
    expect(work.scanned).toBeGreaterThanOrEqual(size);
    expect(work.scanned).toBeLessThanOrEqual(size + 16 * 1024);
    expect(work.copied).toBeLessThanOrEqual(2 * size);
  });

  it('frames 16 MiB of small events split across chunks scanning each byte once', () => {
    const one = enc(`data: ${JSON.stringify({ choices: [{ delta: { content: 'word ' } }] })}\n\n`);
    const count = Math.ceil((16 * 1024 * 1024) / one.byteLength);
    const all = new Uint8Array(one.byteLength * count);
    for (let i = 0; i < count; i++) all.set(one, i * one.byteLength);
    const framer = new SseFramer();
    let framed = 0;
    const work = measureWork(() => {
      for (let at = 0; at < all.byteLength; at += 1000)
        framed += framer.push(all.subarray(at, at + 1000)).length;
    });
    expect(framed).toBe(count);
    expect(work.scanned).toBeGreaterThanOrEqual(all.byteLength);
    expect(work.scanned).toBeLessThanOrEqual(all.byteLength + count);
    expect(work.copied).toBeLessThanOrEqual(2 * all.byteLength);
  });
});
