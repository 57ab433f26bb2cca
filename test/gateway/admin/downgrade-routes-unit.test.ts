/** Where a tenant's or key's body names a downgrade route, by the parameter path a refusal names (pure). */
import { describe, expect, it } from 'vitest';
import { downgradeRoutes } from '../../../src/admin/downgrade-routes';

describe('downgradeRoutes', () => {
  it('lists every downgrade of a body by its parameter path, and none when there is none', () => {
    const d = (route: string) => ({ at_percent: 90, route });
    expect(downgradeRoutes({})).toEqual([]);
    expect(downgradeRoutes({ downgrade: null, end_users: null, model_limits: [] })).toEqual([]);
    expect(
      downgradeRoutes({
        downgrade: d('a'),
        end_users: { limits: {}, budgets: {}, downgrade: d('b') },
        model_limits: [
          { limits: {}, budgets: {} },
          { limits: {}, budgets: {}, downgrade: d('c') },
        ],
        tag_limits: [{ limits: {}, budgets: {}, downgrade: d('d') }],
      }),
    ).toEqual([
      { param: 'downgrade.route', route: 'a' },
      { param: 'end_users.downgrade.route', route: 'b' },
      { param: 'model_limits.1.downgrade.route', route: 'c' },
      { param: 'tag_limits.0.downgrade.route', route: 'd' },
    ]);
  });
});
