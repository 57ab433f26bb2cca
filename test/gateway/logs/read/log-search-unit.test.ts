/** The log search's SQL (pure): LIKE patterns that match themselves, metadata paths, all filters ANDed. */
import { describe, expect, it } from 'vitest';
import { escapeLike, metaPath, whereClause } from '../../../../src/logs/read/logs';

describe('log search SQL', () => {
  it('escapes LIKE wildcards and the escape character itself', () => {
    expect(escapeLike('gpt-4')).toBe('gpt-4');
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });

  it('names a top-level metadata key as a quoted JSON path', () => {
    expect(metaPath('team')).toBe('$."team"');
    expect(metaPath('a.b')).toBe('$."a.b"');
  });

  it('ANDs the search with the tenant scope, values always bound, never spliced', () => {
    const w = whereClause(
      {
        tenantId: 'ten_a',
        requestId: 'r1',
        modelPrefix: 'gpt_4%',
        errorCode: 'rate_limited',
        meta: [
          ['team', 'red'],
          ['n', '5'],
        ],
      },
      null,
    );
    expect(w.sql).toBe(
      "WHERE tenant_id = ? AND id = ? AND model LIKE ? ESCAPE '\\' AND error_code = ? AND " +
        'metadata -> ? IN (json_quote(?), ?) AND metadata -> ? IN (json_quote(?), ?)',
    );
    expect(w.binds).toEqual([
      'ten_a',
      'r1',
      'gpt\\_4\\%%',
      'rate_limited',
      '$."team"',
      'red',
      'red',
      '$."n"',
      '5',
      '5',
    ]);
  });
});
