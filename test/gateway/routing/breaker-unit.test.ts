/** The circuit breaker's state machine (pure), with an injected clock. */
import { describe, expect, it } from 'vitest';
import {
  admission,
  type BreakerRules,
  type BreakerState,
  CLOSED,
  COOLDOWN_MS,
  LOCAL_RULES,
  MAX_COOLDOWN_MS,
  MIN_CALLS,
  phaseOf,
  PROBE_LEASE_MS,
  record,
  SHARED_RULES,
  WINDOW_MS,
} from '../../../src/routing/breaker';

const T0 = 1_000_000;

/** Records outcomes one millisecond apart from `start`; returns the state after each. */
function run(oks: boolean[], start = T0, state: BreakerState = CLOSED, rules: BreakerRules = LOCAL_RULES) {
  const states: BreakerState[] = [];
  oks.forEach((ok, i) => {
    state = record(state, { at: start + i, ok }, start + i, rules);
    states.push(state);
  });
  return { state, states };
}

/** An open breaker as it is right after opening at `at`. */
function openedAt(at: number): BreakerState {
  return run(Array(MIN_CALLS).fill(false), at - MIN_CALLS + 1).state;
}

describe('closed → open', () => {
  it(`never opens below ${MIN_CALLS} calls, and opens on the ${MIN_CALLS}th failure`, () => {
    const { states } = run(Array(MIN_CALLS).fill(false));
    expect(states.slice(0, -1).every((s) => s.kind === 'closed')).toBe(true);
    expect(states.at(-1)).toEqual({
      kind: 'open',
      retryAt: T0 + 4 + COOLDOWN_MS,
      cooldownMs: COOLDOWN_MS,
      probeUntil: 0,
    });
  });

  it('opens when the failure share reaches 50 % and not below it', () => {
    // ok fail ok fail ok → 2/5 = 40 %; then fail → 3/6 = 50 %.
    const { states } = run([true, false, true, false, true, false]);
    expect(states.map((s) => s.kind)).toEqual(['closed', 'closed', 'closed', 'closed', 'closed', 'open']);
  });

  it('forgets failures older than the window', () => {
    const four = run(Array(MIN_CALLS - 1).fill(false)).state;
    const later = T0 + WINDOW_MS + 10;
    const after = record(four, { at: later, ok: false }, later, LOCAL_RULES);
    expect(after).toEqual({ kind: 'closed', recent: [{ at: later, ok: false }] });
  });

  it('ignores an outcome already older than the window', () => {
    const now = T0 + WINDOW_MS * 2;
    expect(record(CLOSED, { at: T0, ok: false }, now, LOCAL_RULES)).toBe(CLOSED);
  });

  it('opens a dead target after at most 10 failures whatever the isolate saw before (LOCAL)', () => {
    for (let successes = 0; successes <= 60; successes++) {
      const before = run(Array(successes).fill(true)).state;
      const { states } = run(Array(20).fill(false), T0 + successes, before);
      const needed = states.findIndex((s) => s.kind === 'open') + 1;
      expect(needed, `after ${successes} successes`).toBe(
        Math.max(MIN_CALLS - successes, Math.min(successes, 10)),
      );
      expect(needed).toBeLessThanOrEqual(10);
    }
  });

  it('needs 50 failures after 100 successes with the SHARED window', () => {
    const before = run(Array(100).fill(true), T0, CLOSED, SHARED_RULES).state;
    const { states } = run(Array(60).fill(false), T0 + 100, before, SHARED_RULES);
    expect(states.findIndex((s) => s.kind === 'open') + 1).toBe(50);
  });
});

describe('open → half-open → closed or open', () => {
  it('stays open during the cooldown, ignoring stragglers, and skips callers', () => {
    const open = openedAt(T0);
    for (const at of [T0, T0 + 1, T0 + COOLDOWN_MS - 1]) {
      expect(phaseOf(open, at)).toBe('open');
      expect(admission(open, at, LOCAL_RULES)).toEqual({ verdict: 'open', state: open });
      expect(record(open, { at, ok: true }, at, LOCAL_RULES)).toBe(open);
      expect(record(open, { at, ok: false }, at, LOCAL_RULES)).toBe(open);
    }
  });

  it('admits exactly one probe once the cooldown is over, and another only after its lease', () => {
    const retryAt = T0 + COOLDOWN_MS;
    const open = openedAt(T0);
    expect(phaseOf(open, retryAt)).toBe('half-open');
    const first = admission(open, retryAt, LOCAL_RULES);
    expect(first.verdict).toBe('probe');
    expect(first.state).toMatchObject({ probeUntil: retryAt + PROBE_LEASE_MS });
    expect(phaseOf(first.state, retryAt + 1)).toBe('open');
    expect(admission(first.state, retryAt + 1, LOCAL_RULES).verdict).toBe('open');
    expect(admission(first.state, retryAt + PROBE_LEASE_MS - 1, LOCAL_RULES).verdict).toBe('open');
    expect(admission(first.state, retryAt + PROBE_LEASE_MS, LOCAL_RULES).verdict).toBe('probe');
  });

  it('closes on a probe success, with a fresh window', () => {
    const retryAt = T0 + COOLDOWN_MS;
    const probing = admission(openedAt(T0), retryAt, LOCAL_RULES).state;
    const closed = record(probing, { at: retryAt + 50, ok: true }, retryAt + 50, LOCAL_RULES);
    expect(closed).toEqual(CLOSED);
    expect(phaseOf(closed, retryAt + 50)).toBe('closed');
    expect(admission(closed, retryAt + 50, LOCAL_RULES).verdict).toBe('closed');
  });

  it('re-opens on a probe failure, doubling the cooldown up to its cap, and resets it after closing', () => {
    let state = openedAt(T0);
    let now = T0;
    const cooldowns: number[] = [];
    for (let i = 0; i < 5; i++) {
      if (state.kind !== 'open') throw new Error('closed');
      now = state.retryAt;
      state = record(admission(state, now, LOCAL_RULES).state, { at: now, ok: false }, now, LOCAL_RULES);
      if (state.kind !== 'open') throw new Error('closed');
      expect(state.retryAt).toBe(now + state.cooldownMs);
      cooldowns.push(state.cooldownMs);
    }
    expect(cooldowns).toEqual([2, 4, 8, 8, 8].map((n) => Math.min(n * COOLDOWN_MS, MAX_COOLDOWN_MS)));
    if (state.kind !== 'open') throw new Error('closed');
    now = state.retryAt;
    const closed = record(state, { at: now, ok: true }, now, LOCAL_RULES);
    expect(openedAt(now + 10)).toMatchObject({ cooldownMs: COOLDOWN_MS });
    expect(closed).toEqual(CLOSED);
  });
});
