/** The typed variables the app puts on Hono's context: the adapters, and the request's exchange. */
import type { Exchange } from './core/exchange';
import type { Deps } from './deps';
import type { Bindings } from './env';

declare module 'hono' {
  interface ContextVariableMap {
    deps: Deps;
    exchange: Exchange;
  }
}

export interface AppEnv {
  Bindings: Bindings;
}
