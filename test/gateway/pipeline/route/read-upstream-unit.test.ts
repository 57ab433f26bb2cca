import { describe, expect, it } from 'vitest';
import { readResponse } from '../../../../src/pipeline/route/read-upstream';

const enc = (s: string) => new TextEncoder().encode(s);

/** A body of these chunks; `then` says how it ends after them. */
function body(chunks: string[], then: 'close' | 'hang' | 'error' = 'close') {
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = chunks.shift();
      if (next !== undefined) controller.enqueue(enc(next));
      else if (then === 'close') controller.close();
      else if (then === 'error') controller.error(new Error('connection reset'));
      else await new Promise(() => {});
    },
  });
  return { stream };
}

const limits = { maxBytes: 16, deadlineMs: 200 };

describe('reading a whole upstream answer', () => {
  it('reads a body of declared length whole', async () => {
    const { stream } = body(['{"a":', '1}']);
    const res = new Response(stream, { headers: { 'content-length': '7' } });
    expect(await readResponse(res, limits)).toEqual({ kind: 'done', text: '{"a":1}' });
  });

  it('reads a body without a declared length chunk by chunk', async () => {
    const { stream } = body(['{"a":', '1}']);
    expect(await readResponse(new Response(stream), limits)).toEqual({ kind: 'done', text: '{"a":1}' });
  });

  it('stops at maxBytes when the declared length is over it', async () => {
    const { stream } = body(['0123456789', '0123456789']);
    const res = new Response(stream, { headers: { 'content-length': '20' } });
    expect(await readResponse(res, limits)).toEqual({ kind: 'too_large', text: '0123456789012345' });
  });

  it('does not trust the declared length of an encoded body: what is read is bounded', async () => {
    // A compressed answer declares its compressed size; decoded, it can be far larger.
    const { stream } = body(['0123456789', '0123456789']);
    const res = new Response(stream, { headers: { 'content-length': '4', 'content-encoding': 'gzip' } });
    expect((await readResponse(res, limits)).kind).toBe('too_large');
  });

  it('gives up on a declared body that stalls, at the deadline', async () => {
    const { stream } = body(['{"a":'], 'hang');
    const res = new Response(stream, { headers: { 'content-length': '7' } });
    const started = Date.now();
    expect(await readResponse(res, limits)).toEqual({ kind: 'timeout', text: '' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(limits.deadlineMs - 5);
  });

  it('reports a declared body cut mid-way as interrupted', async () => {
    const { stream } = body(['{"a":'], 'error');
    const res = new Response(stream, { headers: { 'content-length': '7' } });
    expect((await readResponse(res, limits)).kind).toBe('interrupted');
  });
});
