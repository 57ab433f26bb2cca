/**
 * The dashboard's own context variables. They exist only under /dashboard, so
 * they are typed on the dashboard's Hono env rather than app-wide.
 */
import type { SecureHeadersVariables } from 'hono/secure-headers';
import type { AppEnv } from '../context';
import type { AdminApi } from './admin-api';
import type { Session } from './session';

export interface DashboardEnv {
  Bindings: AppEnv['Bindings'];
  Variables: SecureHeadersVariables & {
    /** The signed-in admin's session (set by requireSession). */
    session: Session;
    /** The admin API, called in-process with the admin token. */
    api: AdminApi;
  };
}
