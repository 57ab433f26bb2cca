/**
 * The route form ⇄ spec conversion: a stored spec shown in the form and saved
 * unchanged comes back equal (nested groups and every target field included);
 * blank and removed rows are left out and the rest renumbered; what is not a
 * number is passed through for the API to refuse; a refused field is named.
 */
import { describe, expect, it } from 'vitest';
import { RouteSpec } from '../../../src/core/route-spec';
import {
  BLANK_ROWS,
  fieldLabel,
  MAX_ROWS,
  resubmitted,
  routeFormValues,
  rowCount,
  specFromForm,
} from '../../../src/dashboard/route-form';

const full = RouteSpec.parse({
  strategy: 'fallback',
  attempts: 2,
  max_calls: 4,
  on_unsupported: 'refuse',
  targets: [
    {
      model: 'openai/gpt-4o-mini',
      ttfb_timeout_ms: 5000,
      attempts: 3,
      credential: 'tenant',
      overrides: { max_tokens: 256, temperature: 0.2, top_p: 0.9 },
    },
    {
      strategy: 'loadbalance',
      weight: 2,
      targets: [
        { model: 'mock/echo', weight: 3 },
        { model: 'anthropic/claude-3-5-haiku-latest', weight: 1, credential: 'deployment' },
      ],
    },
    { model: 'cheap', weight: 1 },
  ],
});

describe('a stored spec in the form', () => {
  it('comes back equal when saved unchanged, nested group and every field included', () => {
    const values = routeFormValues(full);
    expect(values['spec.targets.0.model']).toBe('openai/gpt-4o-mini');
    expect(values['spec.targets.0.overrides.top_p']).toBe('0.9');
    expect(JSON.parse(values['spec.targets.1.keep'] ?? '')).toMatchObject({ strategy: 'loadbalance' });
    expect(values.rows).toBe(String(3 + BLANK_ROWS));
    expect(RouteSpec.parse(specFromForm(values))).toEqual(full);
  });

  it('keeps a spec field the form has no input for', () => {
    const values = { ...routeFormValues(full), 'spec.keep': JSON.stringify({ future: 'x' }) };
    expect(specFromForm(values)).toMatchObject({ future: 'x', strategy: 'fallback' });
  });

  it('a minimal spec: defaults stay implicit, no overrides are invented', () => {
    const spec = RouteSpec.parse({ strategy: 'loadbalance', targets: [{ model: 'mock/echo' }] });
    const body = specFromForm(routeFormValues(spec));
    expect(body).toEqual({
      strategy: 'loadbalance',
      max_calls: 6,
      targets: [{ model: 'mock/echo', weight: 1 }],
    });
  });
});

describe('rows', () => {
  const typed = {
    editor: 'form',
    rows: '4',
    'spec.strategy': 'fallback',
    'spec.targets.0.model': 'mock/a',
    'spec.targets.1.model': '',
    'spec.targets.1.weight': '5',
    'spec.targets.2.model': 'mock/b',
    'spec.targets.2.remove': 'on',
    'spec.targets.3.model': ' mock/c ',
    'spec.targets.3.weight': 'heavy',
    'spec.targets.3.credential': 'auto',
  };

  it('leaves out blank and removed rows, trims models, passes non-numbers through', () => {
    expect(specFromForm(typed)).toEqual({
      strategy: 'fallback',
      targets: [{ model: 'mock/a' }, { model: 'mock/c', weight: 'heavy' }],
    });
  });

  it('renumbers the kept rows as the API numbers them, with blank rows (and more on asking)', () => {
    const again = resubmitted(typed, 0);
    expect(again['spec.targets.1.model']).toBe(' mock/c ');
    expect(again['spec.targets.1.weight']).toBe('heavy');
    expect(again['spec.targets.2.model']).toBeUndefined();
    expect(again.rows).toBe(String(2 + BLANK_ROWS));
    expect(rowCount(resubmitted(typed, 3))).toBe(2 + BLANK_ROWS + 3);
  });

  it('never renders more than MAX_ROWS, nor fewer than the rows sent', () => {
    expect(rowCount({ rows: '999' })).toBe(MAX_ROWS);
    expect(rowCount({ rows: '1', 'spec.targets.5.model': 'x' })).toBe(6);
    expect(rowCount({})).toBe(BLANK_ROWS);
  });

  it('ignores a tampered keep field instead of failing', () => {
    expect(specFromForm({ 'spec.targets.0.model': 'mock/a', 'spec.targets.0.keep': '{not json' })).toEqual({
      strategy: 'fallback',
      targets: [{ model: 'mock/a' }],
    });
  });
});

describe('a refused field, in words', () => {
  it.each([
    ['spec.targets.1.model', 'Target 2: model'],
    ['spec.targets.0.overrides.top_p', 'Target 1: overrides top_p'],
    ['spec.targets.3', 'Target 4'],
    ['spec.max_calls', 'Route settings: max_calls'],
    ['name', 'Route name'],
    ['spec', null],
    [null, null],
  ])('%s → %s', (param, label) => {
    expect(fieldLabel(param)).toBe(label);
  });
});
