/** An audit entry's before → after as the changed fields only. */
import { describe, expect, it } from 'vitest';
import { changedFields, showValue } from '../../../src/dashboard/audit-diff';

describe('changedFields', () => {
  it('keeps only the fields whose values differ, leaving out updated_at', () => {
    const before = { name: 'a', status: 'active', limits: { rpm: 1 }, updated_at: 1 };
    const after = { name: 'a', status: 'disabled', limits: { rpm: 2 }, updated_at: 2 };
    expect(changedFields(before, after)).toEqual([
      { field: 'status', before: 'active', after: 'disabled' },
      { field: 'limits', before: '{"rpm":1}', after: '{"rpm":2}' },
    ]);
  });

  it('lists what a create set and what a delete removed, without empty values', () => {
    expect(changedFields(null, { id: 't', name: 'n', limits: {}, models: null, origins: '[]' })).toEqual([
      { field: 'id', before: null, after: 't' },
      { field: 'name', before: null, after: 'n' },
    ]);
    expect(changedFields({ id: 't' }, null)).toEqual([{ field: 'id', before: 't', after: null }]);
  });

  it('shows an update to or from null', () => {
    expect(changedFields({ a: 1, b: null }, { a: null, b: 2 })).toEqual([
      { field: 'a', before: '1', after: 'null' },
      { field: 'b', before: 'null', after: '2' },
    ]);
  });

  it('cuts long values', () => {
    const shown = showValue('x'.repeat(500));
    expect(shown.length).toBe(160);
    expect(shown.endsWith('…')).toBe(true);
  });
});
