/**
 * The dashboard's own context variables. They exist only under /dashboard, so
 * they are typed on the dashboard's Hono env rather than app-wide.
 */
import type { SecureHeadersVariables } from 'hono/secure-headers';
import type { AppEnv } from '../context';
import type { AdminPrincipal } from '../core/admin-principal';
import type { AdminApi } from './admin-api';
import type { Session } from './session';

/** A live session with the admin it names, loaded on this request (disabled or deleted admins have none). */
export interface SignedIn extends Session {
  who: AdminPrincipal;
}

export interface DashboardEnv {
  Bindings: AppEnv['Bindings'];
  Variables: SecureHeadersVariables & {
    /** The signed-in admin's session and the admin itself (set by requireSession). */
    session: SignedIn;
    /** The admin API, called in-process as the signed-in admin. */
    api: AdminApi;
  };
}
