/** The guardrails form ⇄ policy conversion (pure): what each form sends, and a stored policy round-tripping. */
import { describe, expect, it } from 'vitest';
import type { GuardrailPolicy } from '../../../src/core/guardrail-policy';
import { actionsFor, guardrailFormValues, guardrailsBody } from '../../../src/dashboard/guardrail-form';

describe('actionsFor', () => {
  it('offers redact only to guardrails that find spans, and nothing on answers for request-only ones', () => {
    expect(actionsFor('secrets', 'response')).toEqual(['off', 'log', 'flag', 'redact', 'block']);
    expect(actionsFor('llama_guard', 'request')).toEqual(['off', 'log', 'flag', 'block']);
    expect(actionsFor('injection', 'response')).toEqual([]);
    // quarantine is for tool results only: no request or answer select offers it.
    expect(actionsFor('injection', 'request')).not.toContain('quarantine');
  });
});

describe('tool results', () => {
  it('sends tool_results as chosen, off included, and leaves it out for "as on requests"', () => {
    const base = { 'guardrails.injection.request': 'flag' };
    expect(
      guardrailsBody(
        {
          ...base,
          'guardrails.injection.tool_results': 'quarantine',
          'guardrails.injection_tool_threshold': '0.8',
        },
        'tenant',
      ),
    ).toEqual({ injection: { request: 'flag', tool_results: 'quarantine' }, injection_tool_threshold: 0.8 });
    expect(guardrailsBody({ ...base, 'guardrails.injection.tool_results': 'off' }, 'key')).toEqual({
      injection: { request: 'flag', tool_results: 'off' },
    });
    expect(guardrailsBody({ ...base, 'guardrails.injection.tool_results': '' }, 'key')).toEqual({
      injection: { request: 'flag' },
    });
    // Tool results alone make an injection rule.
    expect(guardrailsBody({ 'guardrails.injection.tool_results': 'block' }, 'key')).toEqual({
      injection: { tool_results: 'block' },
    });
  });

  it('shows a stored tool_results and threshold back, and an absent one as "as on requests"', () => {
    const values = guardrailFormValues(
      { injection: { tool_results: 'quarantine' }, injection_tool_threshold: 0.75 },
      'tenant',
    );
    expect(values['guardrails.injection.tool_results']).toBe('quarantine');
    expect(values['guardrails.injection_tool_threshold']).toBe('0.75');
    expect(guardrailFormValues({}, 'key')['guardrails.injection.tool_results']).toBe('');
  });
});

describe('guardrailsBody', () => {
  it('leaves out what is off, passes a non-number threshold through for the API to refuse', () => {
    expect(
      guardrailsBody(
        {
          'guardrails.pii.request': 'off',
          'guardrails.pii.response': 'redact',
          'guardrails.injection_threshold': 'high',
        },
        'tenant',
      ),
    ).toEqual({ pii: { response: 'redact' }, injection_threshold: 'high' });
  });

  it("a tenant's checkbox allows restoring; a key can only refuse it", () => {
    expect(guardrailsBody({ 'guardrails.restore': 'on' }, 'tenant')).toEqual({ restore: true });
    expect(guardrailsBody({ 'guardrails.restore': 'on' }, 'key')).toEqual({});
    expect(guardrailsBody({ 'guardrails.restore': 'never' }, 'key')).toEqual({ restore: false });
  });

  it("reads the tenant's deny-list one entry per line; a key keeps its stored additions", () => {
    const values = { 'guardrails.deny.terms': ' a \r\n\r\nb', 'guardrails.deny.patterns': ' x\\d+ \r\n' };
    expect(guardrailsBody(values, 'tenant')).toEqual({ deny: { terms: ['a', 'b'], patterns: [' x\\d+ '] } });
    const stored: GuardrailPolicy = { deny: { terms: ['k'], patterns: [] } };
    expect(guardrailsBody(values, 'key', stored)).toEqual({ deny: { terms: ['k'], patterns: [] } });
  });
});

describe('guardrailFormValues', () => {
  it('round-trips a stored policy through its form', () => {
    const tenant: GuardrailPolicy = {
      injection: { request: 'block', tool_results: 'quarantine' },
      pii: { request: 'redact', response: 'flag' },
      injection_threshold: 0.8,
      injection_tool_threshold: 0.9,
      restore: true,
      deny: { terms: ['one', 'two'], patterns: ['\\bx\\b'] },
    };
    expect(guardrailsBody(guardrailFormValues(tenant, 'tenant'), 'tenant')).toEqual(tenant);
    const key: GuardrailPolicy = { secrets: { response: 'block' }, restore: false };
    expect(guardrailsBody(guardrailFormValues(key, 'key'), 'key', key)).toEqual(key);
  });
});
