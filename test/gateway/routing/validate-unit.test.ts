/**
 * Write-time route checks: each refusal with its status, code, message and
 * field; loops and depth seen from every tenant a global route reaches; only
 * problems a change introduces are refused.
 */
import { describe, expect, it } from 'vitest';
import { RouteSpec } from '../../../src/core/route-spec';
import { checkRouteChange, type RouteChange } from '../../../src/routing/validate';
import type { StoredRoute } from '../../../src/storage/route-store';

type Step = string | { strategy: 'fallback' | 'loadbalance'; targets: Step[]; weight?: number };

const toStep = (s: Step): unknown =>
  typeof s === 'string' ? { model: s } : { ...s, targets: s.targets.map(toStep) };

let seq = 0;
function route(
  name: string,
  targets: Step[],
  tenantId: string | null = null,
  strategy: 'fallback' | 'loadbalance' = 'fallback',
): StoredRoute {
  seq += 1;
  return {
    id: `rte_${seq}`,
    name,
    tenantId,
    spec: RouteSpec.parse({ strategy, targets: targets.map(toStep) }),
  };
}

const PROVIDERS = new Set(['openai', 'anthropic', 'mock']);
const knownProvider = (id: string) => PROVIDERS.has(id);

function create(after: StoredRoute, book: StoredRoute[] = []) {
  return checkRouteChange({ before: null, after, book, knownProvider });
}
function update(before: StoredRoute, change: Partial<StoredRoute>, book: StoredRoute[]) {
  const after = { ...before, ...change };
  return checkRouteChange({ before, after, book, knownProvider } satisfies RouteChange);
}
function remove(before: StoredRoute, book: StoredRoute[]) {
  return checkRouteChange({ before, after: null, book, knownProvider });
}

describe('a route that reaches itself', () => {
  it('directly: 400 route_cycle naming the loop and the target', () => {
    expect(create(route('smart', ['openai/gpt-4o', 'smart']))).toEqual({
      status: 400,
      code: 'route_cycle',
      message: "Route 'smart' reaches itself: smart → smart.",
      param: 'spec.targets.1.model',
    });
  });

  it('through another route: smart → fast → smart', () => {
    const smart = route('smart', ['openai/gpt-4o']);
    const fast = route('fast', ['smart']);
    expect(update(smart, { spec: route('x', ['openai/gpt-4o', 'fast']).spec }, [smart, fast])).toEqual({
      status: 400,
      code: 'route_cycle',
      message: "Route 'smart' reaches itself: smart → fast → smart.",
      param: 'spec.targets.1.model',
    });
  });

  it('inside a nested group: the param is the nested target', () => {
    const fast = route('fast', ['openai/gpt-4o']);
    const smart = route('smart', [{ strategy: 'loadbalance', targets: ['openai/gpt-4o', 'fast'] }]);
    const problem = update(fast, { spec: route('x', ['smart']).spec }, [fast, smart]);
    expect(problem).toMatchObject({ code: 'route_cycle', param: 'spec.targets.0.model' });
    const back = update(
      smart,
      { spec: route('x', [{ strategy: 'fallback', targets: ['mock/a', 'smart'] }]).spec },
      [fast, smart],
    );
    expect(back).toMatchObject({
      message: "Route 'smart' reaches itself: smart → smart.",
      param: 'spec.targets.0.targets.1.model',
    });
  });

  it("through a tenant's own route that shadows a global one", () => {
    const smart = route('smart', ['fast']);
    const fast = route('fast', ['openai/gpt-4o']);
    expect(create(route('fast', ['smart'], 'ten_a'), [smart, fast])).toMatchObject({
      code: 'route_cycle',
      message: "Route 'fast' reaches itself: fast → smart → fast.",
    });
  });

  it('a global change that loops only for a tenant with its own route is refused, naming the tenant', () => {
    const smart = route('smart', ['openai/gpt-4o']);
    const fast = route('fast', ['openai/gpt-4o-mini']);
    const own = route('fast', ['smart'], 'ten_a');
    expect(update(smart, { spec: route('x', ['fast']).spec }, [smart, fast, own])).toEqual({
      status: 400,
      code: 'route_cycle',
      message:
        "Route 'smart' reaches itself for tenant ten_a, through that tenant's own routes: smart → fast → smart.",
      param: 'spec.targets.0.model',
    });
  });
});

describe('unknown targets', () => {
  it('a provider this deployment does not know: 400 naming the field', () => {
    expect(create(route('smart', ['openai/gpt-4o', 'nope/model-x']))).toEqual({
      status: 400,
      code: 'unknown_provider',
      message: "No provider 'nope' on this gateway (target 'nope/model-x').",
      param: 'spec.targets.1.model',
    });
  });

  it('a route name that exists nowhere', () => {
    expect(create(route('smart', ['mock/a', { strategy: 'fallback', targets: ['ghost'] }]))).toEqual({
      status: 400,
      code: 'unknown_route',
      message: "No route named 'ghost' among the global routes.",
      param: 'spec.targets.1.targets.0.model',
    });
  });

  it("a global route cannot name a tenant's route; a tenant's route can name a global one", () => {
    const own = route('cheap', ['mock/a'], 'ten_a');
    const global = route('fast', ['mock/b']);
    expect(create(route('smart', ['cheap']), [own, global])).toMatchObject({ code: 'unknown_route' });
    expect(create(route('smart', ['fast', 'cheap'], 'ten_a'), [own, global])).toBeNull();
    expect(create(route('smart', ['cheap'], 'ten_b'), [own, global])).toMatchObject({
      message: "No route named 'cheap' for tenant ten_b or globally.",
    });
  });

  it('a target that is neither provider/model nor a route name', () => {
    expect(create(route('smart', ['openai/']))).toMatchObject({
      code: 'invalid_target',
      param: 'spec.targets.0.model',
    });
    expect(create(route('smart', ['two words']))).toMatchObject({ code: 'invalid_target' });
  });

  it('a route may be named like a provider', () => {
    expect(create(route('openai', ['openai/gpt-4o']))).toBeNull();
  });
});

describe('weights', () => {
  it('a loadbalance group whose weights sum to zero: 400 naming the group', () => {
    const zero = RouteSpec.parse({
      strategy: 'fallback',
      targets: [
        { model: 'mock/a' },
        {
          strategy: 'loadbalance',
          targets: [
            { model: 'mock/b', weight: 0 },
            { model: 'mock/c', weight: 0 },
          ],
        },
      ],
    });
    expect(create({ id: 'rte_w', name: 'w', tenantId: null, spec: zero })).toEqual({
      status: 400,
      code: 'zero_weights',
      message:
        'The loadbalance group at spec.targets.1 has weights that sum to 0; give a target a weight above 0.',
      param: 'spec.targets.1',
    });
    const top = RouteSpec.parse({ strategy: 'loadbalance', targets: [{ model: 'mock/b', weight: 0 }] });
    expect(create({ id: 'rte_t', name: 't', tenantId: null, spec: top })).toMatchObject({ param: 'spec' });
  });

  it('zero weights in a fallback group are fine (weights do not apply there)', () => {
    const spec = RouteSpec.parse({ strategy: 'fallback', targets: [{ model: 'mock/b', weight: 0 }] });
    expect(create({ id: 'rte_f', name: 'f', tenantId: null, spec })).toBeNull();
  });
});

describe('depth', () => {
  const d = route('d', ['mock/a']);
  const c = route('c', ['d']);
  const b = route('b', ['c']);
  const a = route('a', ['b']);

  it('four levels pass; a fifth (named routes count) is refused', () => {
    expect(create(route('a2', ['b']), [d, c, b])).toBeNull();
    expect(create(route('e', ['a']), [d, c, b, a])).toEqual({
      status: 400,
      code: 'route_too_deep',
      message: "Route 'e' would nest 5 levels deep (each group and each route named counts); at most 4.",
      param: 'spec',
    });
  });

  it('nested groups count', () => {
    const g = (inner: Step): Step => ({ strategy: 'fallback', targets: [inner] });
    expect(create(route('deep', [g(g(g('mock/a')))]))).toBeNull();
    expect(create(route('deeper', [g(g(g(g('mock/a'))))]))).toMatchObject({ code: 'route_too_deep' });
  });

  it('a change that pushes a route naming this one too deep is refused, naming it', () => {
    const deeper = route('x', [{ strategy: 'fallback', targets: ['mock/a'] }]).spec;
    expect(update(d, { spec: deeper }, [d, c, b, a])).toEqual({
      status: 400,
      code: 'route_too_deep',
      message:
        "This change would make route 'a' (global) nest 5 levels deep (each group and each route named counts); at most 4.",
      param: 'spec',
    });
  });
});

describe('delete and rename', () => {
  it('deleting a route others name: 409 naming every referrer', () => {
    const fast = route('fast', ['mock/a']);
    const smart = route('smart', ['fast']);
    const own = route('cheap', ['mock/b', 'fast'], 'ten_a');
    expect(remove(fast, [fast, smart, own])).toEqual({
      status: 409,
      code: 'route_in_use',
      message: "Route 'fast' (global) is named by route 'smart' (global); change those first.",
      param: null,
    });
    expect(remove(fast, [fast, own])).toMatchObject({
      message: "Route 'fast' (global) is named by route 'cheap' (tenant ten_a); change those first.",
    });
    expect(remove(smart, [fast, smart, own])).toBeNull();
  });

  it("deleting a tenant's route that shadows a global one of the same name is fine", () => {
    const global = route('fast', ['mock/a']);
    const own = route('fast', ['mock/b'], 'ten_a');
    const smart = route('smart', ['fast'], 'ten_a');
    expect(remove(own, [global, own, smart])).toBeNull();
  });

  it('renaming a route others name: 409 on name', () => {
    const fast = route('fast', ['mock/a']);
    const smart = route('smart', ['fast']);
    expect(update(fast, { name: 'quick' }, [fast, smart])).toMatchObject({
      status: 409,
      code: 'route_in_use',
      param: 'name',
    });
  });

  it("deleting a tenant's route that then exposes a loop through a global one: 409", () => {
    const gSmart = route('smart', ['mock/a']);
    const gFast = route('fast', ['smart']);
    const tFast = route('fast', ['mock/b'], 'ten_a');
    const tSmart = route('smart', ['fast'], 'ten_a');
    expect(remove(tFast, [gSmart, gFast, tFast, tSmart])).toEqual({
      status: 409,
      code: 'route_in_use',
      message: "Deleting it would make route 'smart' (tenant ten_a) loop: smart → fast → smart.",
      param: 'spec',
    });
  });
});

describe('names', () => {
  it('a name taken in the same scope: 409 route_exists; other scopes are independent', () => {
    const fast = route('fast', ['mock/a']);
    expect(create(route('fast', ['mock/b']), [fast])).toEqual({
      status: 409,
      code: 'route_exists',
      message: "A route named 'fast' exists among the global routes.",
      param: 'name',
    });
    expect(create(route('fast', ['mock/b'], 'ten_a'), [fast])).toBeNull();
  });

  it('a problem the change did not introduce never blocks it', () => {
    const loopA = route('la', ['lb']);
    const loopB = route('lb', ['la']);
    const fast = route('fast', ['mock/a']);
    expect(update(fast, { spec: route('x', ['mock/b']).spec }, [loopA, loopB, fast])).toBeNull();
    expect(create(route('other', ['mock/c']), [loopA, loopB])).toBeNull();
  });
});
