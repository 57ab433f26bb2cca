import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTROLS } from '../../workers/mock-llm/src/controls';
import type { Step, StreamPlan } from '../../workers/mock-llm/src/schedule';
import { pacedStream, plannedLength } from '../../workers/mock-llm/src/sse';

/** Reads a stream to the end, returning each chunk as text. */
async function chunks(stream: ReadableStream<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    out.push(new TextDecoder().decode(value));
  }
}

function listOf(list: Step[]): Iterator<Step, void> {
  return list[Symbol.iterator]() as Iterator<Step, void>;
}

describe('pacedStream', () => {
  it('coalesces unpaced events into one write, breaking at a stall', async () => {
    const list: Step[] = [
      { kind: 'send', event: 'a' },
      { kind: 'send', event: 'b' },
      { kind: 'stall', ms: 1 },
      { kind: 'send', event: 'c' },
    ];
    expect(await chunks(pacedStream(listOf(list), 0))).toEqual(['ab', 'c']);
  });

  it('writes one event per chunk when paced', async () => {
    const list: Step[] = [
      { kind: 'send', event: 'a' },
      { kind: 'send', event: 'b' },
      { kind: 'send', event: 'c' },
    ];
    expect(await chunks(pacedStream(listOf(list), 1))).toEqual(['a', 'b', 'c']);
  });

  it('delivers the events before a reset, then errors', async () => {
    const list: Step[] = [{ kind: 'send', event: 'a' }, { kind: 'send', event: 'b' }, { kind: 'reset' }];
    const reader = pacedStream(listOf(list), 0).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('ab');
    await expect(reader.read()).rejects.toThrow(/reset/);
  });

  it('stops at a cancel during a stall without asking for more steps', async () => {
    let asked = 0;
    const list: Step[] = [
      { kind: 'send', event: 'a' },
      { kind: 'stall', ms: 60_000 },
      { kind: 'send', event: 'b' },
    ];
    const iterator: Iterator<Step, void> = {
      next: () =>
        asked < list.length ? { done: false, value: list[asked++]! } : { done: true, value: undefined },
    };
    const reader = pacedStream(iterator, 0).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('a');
    const pending = reader.read();
    await new Promise((resolve) => setTimeout(resolve, 10));
    const started = Date.now();
    await reader.cancel();
    expect(await pending).toEqual({ done: true, value: undefined });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(Date.now() - started).toBeLessThan(500);
    expect(asked).toBe(2);
  });
});

describe('plannedLength', () => {
  it('counts the UTF-8 bytes of every event, including a malformed one, but ignores cut and reset', () => {
    const plan: StreamPlan = {
      head: ['é'],
      tokenCount: 2,
      token: (i) => `T${i}`,
      tail: ['D'],
      malformed: 'M',
      content: { open: 'O', close: 'C' },
    };
    expect(plannedLength(plan, { ...DEFAULT_CONTROLS, reset_after: 0 })).toBe(2 + 2 + 2 + 1);
    expect(plannedLength(plan, { ...DEFAULT_CONTROLS, reset_after: 1, malformed_after: 1 })).toBe(
      2 + 2 + 2 + 1 + 1,
    );
  });
});
