/** Guardrail policies: what the schema refuses, and how a key's policy narrows its tenant's (never loosens it). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ACTIONS,
  type Action,
  effectivePolicy,
  GUARDRAILS,
  GuardrailPolicy,
  RULE_ACTIONS,
  TOOL_RESULT_ACTIONS,
} from '../../../src/core/guardrail-policy';

const rank = (a: Action) => ACTIONS.indexOf(a);

describe('GuardrailPolicy', () => {
  it('accepts a full policy', () => {
    const policy = {
      injection: { request: 'block' },
      pii: { request: 'redact', response: 'redact' },
      secrets: { request: 'block', response: 'flag' },
      denylist: { request: 'log' },
      llama_guard: { request: 'flag' },
      injection_threshold: 0.8,
      restore: true,
      deny: { terms: ['x'], patterns: ['y\\d'] },
    };
    expect(GuardrailPolicy.parse(policy)).toEqual(policy);
  });

  it.each([
    [{ injection: { request: 'redact' } }, 'cannot redact'],
    [{ llama_guard: { request: 'redact' } }, 'cannot redact'],
    [{ injection: { response: 'flag' } }, 'requests only'],
    [{ llama_guard: { response: 'block' } }, 'requests only'],
    [{ pii: { request: 'mask' } }, 'Invalid option'],
    [{ pii: { both: 'block' } }, 'Unrecognized key'],
    [{ injection_threshold: 1 }, 'expected number to be <1'],
    [{ phone: { request: 'block' } }, 'Unrecognized key'],
    [{ injection: { request: 'quarantine' } }, 'set injection.tool_results'],
    [{ pii: { request: 'quarantine' } }, 'set injection.tool_results'],
    [{ secrets: { response: 'quarantine' } }, 'set injection.tool_results'],
    [{ pii: { tool_results: 'quarantine' } }, 'set injection.tool_results'],
    [{ tool_results: 'quarantine' }, 'set injection.tool_results'],
    [{ injection: { tool_results: 'redact' } }, 'cannot be redacted'],
    [{ injection: { tool_results: 'drop' } }, 'Invalid option'],
    [{ injection_tool_threshold: 0 }, 'expected number to be >0'],
  ])('refuses %j', (policy, message) => {
    const result = GuardrailPolicy.safeParse(policy);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain(message);
  });
});

describe('GuardrailPolicy: tool results', () => {
  it('accepts every tool-result action on the injection rule, and its own threshold', () => {
    for (const action of TOOL_RESULT_ACTIONS) {
      const policy = { injection: { request: 'flag', tool_results: action }, injection_tool_threshold: 0.8 };
      expect(GuardrailPolicy.parse(policy)).toEqual(policy);
    }
  });

  it('ranks quarantine above redact and below block', () => {
    expect(rank('quarantine')).toBeGreaterThan(rank('redact'));
    expect(rank('quarantine')).toBeLessThan(rank('block'));
  });
});

describe('effectivePolicy', () => {
  it('is inactive when nothing is on', () => {
    expect(effectivePolicy({}, {}).active).toBe(false);
    expect(effectivePolicy({ pii: { request: 'off' } }, {}).active).toBe(false);
    expect(effectivePolicy({}, { pii: { response: 'log' } }).active).toBe(true);
  });

  it('takes the stricter action for every guardrail and direction, whichever side sets it', () => {
    const action = fc.constantFrom(...RULE_ACTIONS);
    const rule = fc.record({ request: action, response: action }, { requiredKeys: [] });
    const side = fc.record(Object.fromEntries(GUARDRAILS.map((g) => [g, rule])), { requiredKeys: [] });
    fc.assert(
      fc.property(side, side, (tenant, key) => {
        const merged = effectivePolicy(tenant as GuardrailPolicy, key as GuardrailPolicy);
        for (const g of GUARDRAILS) {
          for (const dir of ['request', 'response'] as const) {
            const t = (tenant as GuardrailPolicy)[g]?.[dir] ?? 'off';
            const k = (key as GuardrailPolicy)[g]?.[dir] ?? 'off';
            const got = merged[dir][g];
            // Never looser than either side, and exactly the stricter of the two.
            expect(rank(got)).toBeGreaterThanOrEqual(rank(t));
            expect(rank(got)).toBeGreaterThanOrEqual(rank(k));
            expect(got).toBe(rank(t) >= rank(k) ? t : k);
          }
        }
      }),
      { seed: 15, numRuns: 300 },
    );
  });

  it('gives tool results each side’s tool_results, else its request action, and takes the stricter', () => {
    expect(effectivePolicy({}, {}).toolResults).toBe('off');
    // Absent tool_results: the request action (today’s behaviour).
    expect(effectivePolicy({ injection: { request: 'block' } }, {}).toolResults).toBe('block');
    expect(
      effectivePolicy({ injection: { request: 'flag', tool_results: 'quarantine' } }, {}).toolResults,
    ).toBe('quarantine');
    // A key tightens: its own quarantine over the tenant's flag, its request block over the tenant's quarantine.
    expect(
      effectivePolicy({ injection: { request: 'flag' } }, { injection: { tool_results: 'quarantine' } })
        .toolResults,
    ).toBe('quarantine');
    expect(
      effectivePolicy({ injection: { tool_results: 'quarantine' } }, { injection: { request: 'block' } })
        .toolResults,
    ).toBe('block');
    // …and never loosens: a key's `log` leaves the tenant's quarantine.
    expect(
      effectivePolicy({ injection: { tool_results: 'quarantine' } }, { injection: { tool_results: 'log' } })
        .toolResults,
    ).toBe('quarantine');
    // A tenant that sets tool_results off while requests block: tool results are off for it, the key may raise.
    const p = effectivePolicy({ injection: { request: 'block', tool_results: 'off' } }, {});
    expect(p.toolResults).toBe('off');
    expect(p.request.injection).toBe('block');
  });

  it('is active when only tool results are judged', () => {
    const p = effectivePolicy({ injection: { tool_results: 'log' } }, {});
    expect(p.active).toBe(true);
    expect(p.request.injection).toBe('off');
  });

  it('takes the lower tool-result threshold, apart from the prompt threshold', () => {
    expect(effectivePolicy({}, {}).toolThreshold).toBeNull();
    const p = effectivePolicy(
      { injection_tool_threshold: 0.9, injection_threshold: 0.5 },
      { injection_tool_threshold: 0.7 },
    );
    expect(p.toolThreshold).toBe(0.7);
    expect(p.injectionThreshold).toBe(0.5);
    expect(effectivePolicy({ injection_tool_threshold: 0.6 }, {}).toolThreshold).toBe(0.6);
  });

  it('takes the lower injection threshold, adds deny-lists, and restores only with the tenant’s consent', () => {
    const p = effectivePolicy(
      { injection_threshold: 0.8, restore: true, deny: { terms: ['a'], patterns: [] } },
      { injection_threshold: 0.7, deny: { terms: ['b'], patterns: ['c\\d'] } },
    );
    expect(p.injectionThreshold).toBe(0.7);
    expect(p.deny).toEqual({ terms: ['a', 'b'], patterns: ['c\\d'] });
    expect(p.restore).toBe(true);
    expect(
      effectivePolicy({ injection_threshold: 0.6 }, { injection_threshold: 0.9 }).injectionThreshold,
    ).toBe(0.6);
    expect(effectivePolicy({ restore: true }, { restore: false }).restore).toBe(false);
    expect(effectivePolicy({}, { restore: true }).restore).toBe(false);
  });
});
