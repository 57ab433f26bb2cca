/**
 * The typed variables the app puts on Hono's context: the adapters, and under /admin who is calling
 * and its audited database.
 */
import type { AdminPrincipal } from './core/admin-principal';
import type { Deps } from './ports';
import type { Bindings } from './env';

declare module 'hono' {
  interface ContextVariableMap {
    deps: Deps;
    /** Under /admin: who is calling (set by the admin guard). */
    adminPrincipal: AdminPrincipal;
    /** Under /admin: D1 for this request, every write audited as the caller's (src/admin/access/audited-db.ts). */
    adminDb: D1Database;
  }
}

export interface AppEnv {
  Bindings: Bindings;
}
