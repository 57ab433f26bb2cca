/** The isolate's log batcher: when it flushes, how it numbers batches, when each caller's promise settles. */
import { describe, expect, it } from 'vitest';
import type { LogBatch } from '../../../../src/core/log-batch';
import { LogBatcher } from '../../../../src/logs/produce/batcher';
import { jsonBytesBound } from '../../../../src/logs/produce/json-bound';
import { jsonBytes } from '../../../../src/logs/produce/normalise';
import { logEvent } from '../../log-fixtures';

function recording(options: { maxEvents?: number; maxBytes?: number; waitMs?: number } = {}) {
  const batches: LogBatch[] = [];
  let release: () => void = () => {};
  const gate = { open: true };
  const batcher = new LogBatcher({
    waitMs: 5,
    ...options,
    isolate: 'iso-test',
    deliver: async (batch) => {
      batches.push(batch);
      if (!gate.open) await new Promise<void>((r) => (release = r));
    },
  });
  return { batcher, batches, gate, release: () => release() };
}

describe('LogBatcher', () => {
  it('flushes at maxEvents and after the wait, numbering batches and counting events sent', async () => {
    const { batcher, batches } = recording({ maxEvents: 2, waitMs: 5 });
    const done = [1, 2, 3, 4, 5].map(() => batcher.add(logEvent()));
    // A full batch is sent at once, by the call that filled it; the last one waits for its opener's timer.
    expect(batches.map((b) => b.events.length)).toEqual([2, 2]);
    await Promise.all(done);
    expect(
      batches.map(({ v, isolate, seq, sent, events }) => ({ v, isolate, seq, sent, n: events.length })),
    ).toEqual([
      { v: 2, isolate: 'iso-test', seq: 1, sent: 2, n: 2 },
      { v: 2, isolate: 'iso-test', seq: 2, sent: 4, n: 2 },
      { v: 2, isolate: 'iso-test', seq: 3, sent: 5, n: 1 },
    ]);
  });

  it('gathers the events of concurrent callers into one batch', async () => {
    const { batcher, batches } = recording({ waitMs: 5 });
    await Promise.all(Array.from({ length: 30 }, () => batcher.add(logEvent())));
    expect(batches).toHaveLength(1);
    expect(batches[0]!.events).toHaveLength(30);
  });

  it('resolves the request that opened a batch once it is delivered, the others at once', async () => {
    const { batcher, batches, gate, release } = recording({ waitMs: 1 });
    gate.open = false;
    let settled = false;
    const done = batcher.add(logEvent()).then(() => {
      settled = true;
    });
    await batcher.add(logEvent());
    await new Promise((r) => setTimeout(r, 20));
    expect(settled).toBe(false);
    expect(batches[0]!.events).toHaveLength(2);
    release();
    await done;
    expect(settled).toBe(true);
  });

  it('resolves the call that filled a batch once that batch is delivered, and its opener without sending again', async () => {
    const { batcher, batches, gate, release } = recording({ maxEvents: 2, waitMs: 1 });
    gate.open = false;
    const opener = batcher.add(logEvent());
    let filled = false;
    const filler = batcher.add(logEvent()).then(() => {
      filled = true;
    });
    expect(batches).toHaveLength(1);
    await new Promise((r) => setTimeout(r, 20));
    expect(filled).toBe(false);
    await opener;
    release();
    await filler;
    expect(batches).toHaveLength(1);
  });

  it('sends nothing before the wait while a batch is not full', async () => {
    const { batcher, batches } = recording({ waitMs: 30 });
    const done = Array.from({ length: 10 }, () => batcher.add(logEvent()));
    await new Promise((r) => setTimeout(r, 5));
    expect(batches).toEqual([]);
    await Promise.all(done);
    expect(batches.map((b) => b.events.length)).toEqual([10]);
  });

  it('starts a new batch rather than pass the byte cap', async () => {
    const event = logEvent({ payload: { request: 'p'.repeat(10_000), response: null, truncated: false } });
    const { batcher, batches } = recording({ maxBytes: jsonBytes(event) * 3 + 500, waitMs: 1 });
    await Promise.all(Array.from({ length: 7 }, () => batcher.add({ ...event })));
    expect(batches.map((b) => b.events.length)).toEqual([3, 3, 1]);
    for (const b of batches) expect(jsonBytes(b)).toBeLessThanOrEqual(jsonBytes(event) * 3 + 500);
  });

  it('measures a batch exactly when the bound cannot clear the cap, so it still fills', async () => {
    // JSON-escaped payloads: the bound counts 6 bytes a character, the exact size far fewer.
    const event = logEvent({ payload: { request: '"q"'.repeat(2_000), response: null, truncated: false } });
    const exact = jsonBytes(event);
    expect(jsonBytesBound(event)).toBeGreaterThan(2 * exact);
    const { batcher, batches } = recording({ maxBytes: exact * 4 + 500, waitMs: 1 });
    await Promise.all(Array.from({ length: 9 }, () => batcher.add({ ...event })));
    expect(batches.map((b) => b.events.length)).toEqual([4, 4, 1]);
    for (const b of batches) expect(jsonBytes(b)).toBeLessThanOrEqual(exact * 4 + 500);
  });
});
