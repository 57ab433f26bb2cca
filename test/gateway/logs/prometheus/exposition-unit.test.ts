/** The Prometheus text format writer (pure): escaping, values, histograms, and the document's shape. */
import { describe, expect, it } from 'vitest';
import {
  escapeHelp,
  escapeLabelValue,
  exposition,
  formatValue,
  histogramSamples,
} from '../../../../src/logs/prometheus/exposition';
import { readExposition, value } from '../../prometheus-helpers';

describe('the Prometheus text format', () => {
  it('escapes backslash, double quote and line feed in label values, and backslash and line feed in HELP', () => {
    expect(escapeLabelValue('a\\b "c"\nd')).toBe('a\\\\b \\"c\\"\\nd');
    expect(escapeHelp('a\\b "c"\nd')).toBe('a\\\\b "c"\\nd');
  });

  it('writes values as Go parses them', () => {
    expect(
      [1, 0.25, 1e21, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, Number.NaN].map(formatValue),
    ).toEqual(['1', '0.25', '1e+21', '+Inf', '-Inf', 'NaN']);
  });

  it('turns per-bucket counts into cumulative buckets ending at +Inf, then _sum and _count', () => {
    const samples = histogramSamples({ m: 'x' }, [0.1, 1], [2, 0, 3], 4.5);
    expect(samples).toEqual([
      { suffix: '_bucket', labels: { m: 'x', le: '0.1' }, value: 2 },
      { suffix: '_bucket', labels: { m: 'x', le: '1' }, value: 2 },
      { suffix: '_bucket', labels: { m: 'x', le: '+Inf' }, value: 5 },
      { suffix: '_sum', labels: { m: 'x' }, value: 4.5 },
      { suffix: '_count', labels: { m: 'x' }, value: 5 },
    ]);
  });

  it('writes HELP and TYPE before each family’s samples, ends with a line feed, and parses back', () => {
    const text = exposition([
      {
        name: 'x_total',
        help: 'Things.\nCounted.',
        type: 'counter',
        samples: [{ suffix: '', labels: { model: 'a"b\\c\nd' }, value: 3 }],
      },
      {
        name: 'y_seconds',
        help: 'Time.',
        type: 'histogram',
        samples: histogramSamples({}, [1], [1, 1], 2.5),
      },
      { name: 'z', help: 'None yet.', type: 'gauge', samples: [] },
    ]);
    expect(text.endsWith('\n')).toBe(true);
    expect(text.split('\n').slice(0, 3)).toEqual([
      '# HELP x_total Things.\\nCounted.',
      '# TYPE x_total counter',
      'x_total{model="a\\"b\\\\c\\nd"} 3',
    ]);
    const s = readExposition(text);
    expect(value(s, 'x_total', { model: 'a"b\\c\nd' })).toBe(3);
    expect(s.families.get('x_total')).toEqual({ type: 'COUNTER', help: 'Things.\nCounted.' });
    expect(value(s, 'y_seconds_bucket', { le: '+Inf' })).toBe(2);
    expect(s.families.get('z')?.type).toBe('GAUGE');
  });
});
