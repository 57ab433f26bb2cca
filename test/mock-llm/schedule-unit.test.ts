import { describe, expect, it } from 'vitest';
import { DEFAULT_CONTROLS } from '../../workers/mock-llm/src/controls';
import { schedule, type StreamFaults, type StreamPlan } from '../../workers/mock-llm/src/schedule';

const PLAN: StreamPlan = {
  head: ['H'],
  tokenCount: 3,
  token: (i) => `T${i}`,
  tail: ['F', 'D'],
  malformed: 'M',
  content: { open: 'O', close: 'C' },
};

function steps(faults: Partial<StreamFaults>): string[] {
  return [...schedule(PLAN, { ...DEFAULT_CONTROLS, ...faults })].map((s) =>
    s.kind === 'send' ? s.event : s.kind === 'stall' ? `stall:${s.ms}` : s.kind,
  );
}

describe('schedule', () => {
  it('sends head, tokens and tail without faults', () => {
    expect(steps({})).toEqual(['H', 'T0', 'T1', 'T2', 'F', 'D']);
  });

  it('fires each fault after N token chunks', () => {
    expect(steps({ cut_after: 1 })).toEqual(['H', 'T0', 'cut']);
    expect(steps({ reset_after: 0 })).toEqual(['H', 'reset']);
    expect(steps({ stall_after: 2, stall_ms: 7 })).toEqual(['H', 'T0', 'T1', 'stall:7', 'T2', 'F', 'D']);
    expect(steps({ malformed_after: 1 })).toEqual(['H', 'T0', 'M', 'T1', 'T2', 'F', 'D']);
  });

  it('fires faults beyond the token count after the last token, before the tail', () => {
    expect(steps({ cut_after: 9 })).toEqual(['H', 'T0', 'T1', 'T2', 'cut']);
    expect(steps({ malformed_after: 3 })).toEqual(['H', 'T0', 'T1', 'T2', 'M', 'F', 'D']);
  });

  it('orders faults at one point as malformed, stall, then cut', () => {
    expect(steps({ malformed_after: 1, stall_after: 1, stall_ms: 1, cut_after: 1 })).toEqual([
      'H',
      'T0',
      'M',
      'stall:1',
      'cut',
    ]);
  });

  it('renders only the tokens it sends', () => {
    const rendered: number[] = [];
    const plan = {
      ...PLAN,
      token: (i: number) => {
        rendered.push(i);
        return `T${i}`;
      },
    };
    [...schedule(plan, { ...DEFAULT_CONTROLS, cut_after: 1 })];
    expect(rendered).toEqual([0]);
  });
});

describe('schedule: huge and unterminated events', () => {
  it('sends one huge event right after the head, then the stream as usual', () => {
    const all = [...schedule(PLAN, { ...DEFAULT_CONTROLS, huge_event_bytes: 100 })];
    expect(all[1]).toEqual({ kind: 'blob', open: 'O', bytes: 100, close: 'C' });
    expect(all.map((s) => (s.kind === 'send' ? s.event : s.kind))).toEqual([
      'H',
      'blob',
      'T0',
      'T1',
      'T2',
      'F',
      'D',
    ]);
  });

  it('sends an event that never ends, then ends the body', () => {
    const all = [...schedule(PLAN, { ...DEFAULT_CONTROLS, unterminated_bytes: 100 })];
    expect(all).toEqual([
      { kind: 'send', event: 'H' },
      { kind: 'blob', open: 'O', bytes: 100, close: null },
      { kind: 'cut' },
    ]);
  });
});
