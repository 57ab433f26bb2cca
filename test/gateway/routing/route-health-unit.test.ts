/**
 * Route health, pure: the targets a spec names (leaves in order, once each,
 * routes told from models), the breakers a target's calls count toward, a
 * breaker as an operator reads it (phase, since when, window), and a target's
 * status from its breakers and its fallback rate.
 */
import { describe, expect, it } from 'vitest';
import { RouteSpec } from '../../../src/core/route-spec';
import { CLOSED, COOLDOWN_MS, WINDOW_MS } from '../../../src/routing/breaker';
import { type BreakerInspection, inspectBreaker } from '../../../src/routing/breaker-inspection';
import { NO_HEALTH } from '../../../src/routing/health';
import {
  breakerKeys,
  FAILING_MIN_REQUESTS,
  specTargets,
  targetStatus,
  worstStatus,
} from '../../../src/routing/route-health';

const T0 = Date.UTC(2099, 0, 1);

describe('specTargets', () => {
  it('lists leaves depth first, each model once, routes told from models', () => {
    const spec = RouteSpec.parse({
      strategy: 'fallback',
      targets: [
        { model: 'openai/a' },
        { strategy: 'loadbalance', targets: [{ model: 'mock/b' }, { model: 'openai/a' }] },
        { model: 'other-route', credential: 'deployment' },
      ],
    });
    expect(specTargets(spec)).toEqual([
      { model: 'openai/a', kind: 'model', credential: 'auto' },
      { model: 'mock/b', kind: 'model', credential: 'auto' },
      { model: 'other-route', kind: 'route', credential: 'deployment' },
    ]);
  });
});

describe('breakerKeys', () => {
  it("adds the tenant's own-key breaker on a tenant's route unless the target uses the deployment's key", () => {
    const t = { model: 'openai/a', kind: 'model', credential: 'auto' } as const;
    expect(breakerKeys(t, null)).toEqual([{ key: 'openai/a', scope: 'deployment' }]);
    expect(breakerKeys(t, 'ten_x').map((k) => k.key)).toEqual(['openai/a', 'openai/a@ten_x']);
    expect(breakerKeys({ ...t, credential: 'deployment' }, 'ten_x')).toHaveLength(1);
    expect(breakerKeys({ model: 'r', kind: 'route', credential: 'auto' }, 'ten_x')).toEqual([]);
  });
});

describe('inspectBreaker', () => {
  it('open: since it opened, until when; half-open from retryAt', () => {
    const open = { kind: 'open', retryAt: T0 + COOLDOWN_MS, cooldownMs: COOLDOWN_MS, probeUntil: 0 } as const;
    expect(inspectBreaker(open, NO_HEALTH, null, T0 + 1, WINDOW_MS)).toMatchObject({
      phase: 'open',
      since: T0,
      retryAt: T0 + COOLDOWN_MS,
    });
    expect(inspectBreaker(open, NO_HEALTH, null, T0 + COOLDOWN_MS, WINDOW_MS)).toMatchObject({
      phase: 'half-open',
      since: T0 + COOLDOWN_MS,
    });
  });

  it('closed: since it last closed, counting only the window', () => {
    const state = {
      kind: 'closed',
      recent: [
        { at: T0 - WINDOW_MS - 1, ok: false },
        { at: T0 - 10, ok: false },
        { at: T0 - 5, ok: true },
      ],
    } as const;
    expect(inspectBreaker(state, NO_HEALTH, T0 - 100, T0, WINDOW_MS)).toMatchObject({
      phase: 'closed',
      since: T0 - 100,
      windowCalls: 2,
      windowFailures: 1,
    });
    expect(inspectBreaker(CLOSED, NO_HEALTH, null, T0, WINDOW_MS).since).toBeNull();
  });
});

const closed = (calls: number, failures: number): BreakerInspection => ({
  phase: 'closed',
  since: null,
  retryAt: null,
  cooldownMs: null,
  windowCalls: calls,
  windowFailures: failures,
  health: { ...NO_HEALTH, calls, failures },
});

describe('targetStatus', () => {
  const n = FAILING_MIN_REQUESTS;
  it.each([
    ['open', [{ ...closed(0, 0), phase: 'open' as const }], null, 'open'],
    ['half-open', [{ ...closed(0, 0), phase: 'half-open' as const }], null, 'half-open'],
    ['most requests fell back in the hour', [closed(0, 0)], { requests: n, served: 0 }, 'failing'],
    ['a tenth fell back', [closed(0, 0)], { requests: 10, served: 9 }, 'healthy'],
    ['too few requests to judge', [closed(0, 0)], { requests: n - 1, served: 0 }, 'healthy'],
    ['half the window failed', [closed(4, 2)], null, 'failing'],
    ['called, all fine', [closed(4, 0)], null, 'healthy'],
    ['never called', [closed(0, 0)], null, 'idle'],
  ])('%s', (_, breakers, lastHour, status) => {
    const hour = lastHour ?? { requests: 0, served: 0 };
    expect(targetStatus({ breakers, lastHour: hour, last24h: hour })).toBe(status);
  });

  it('the worst status wins', () => {
    expect(worstStatus(['healthy', 'failing', 'idle'])).toBe('failing');
    expect(worstStatus([])).toBe('idle');
  });
});
