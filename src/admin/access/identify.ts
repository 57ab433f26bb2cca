/**
 * Who a presented admin token belongs to: the deployment's ADMIN_TOKEN (the
 * break-glass owner, compared in constant time) or an active named admin's
 * token (found by its hash). Both doors that take a token, the admin API and
 * the dashboard's sign-in, use this inside the per-client throttle.
 */
import { BREAK_GLASS, type AdminPrincipal } from '../../core/admin-principal';
import { type D1AdminStore, principalOf } from '../../storage/admin-store';
import { secretsEqual } from '../../util/crypto';

export async function identifyAdmin(
  given: string,
  adminToken: string,
  admins: Pick<D1AdminStore, 'byToken'>,
): Promise<AdminPrincipal | null> {
  if (await secretsEqual(given, adminToken)) return BREAK_GLASS;
  const admin = await admins.byToken(given);
  return admin ? principalOf(admin) : null;
}
