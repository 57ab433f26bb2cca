/** The typed variables the middleware chain puts on Hono's context. */
import type { Deps } from './deps';
import type { Bindings } from './env';
import type { Principal } from './pipeline/auth';
import type { RequestRecord } from './pipeline/record';

declare module 'hono' {
  interface ContextVariableMap {
    requestId: string;
    /** performance.now() when the request reached the gateway. */
    startedAt: number;
    /** Time spent waiting on upstreams, excluded from x-edgeway-overhead-ms. */
    upstreamMs: number;
    deps: Deps;
    principal: Principal;
    record: RequestRecord;
  }
}

export interface AppEnv {
  Bindings: Bindings;
}
