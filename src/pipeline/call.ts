/** What every /v1 handler is given: the request, its Worker bindings and context, the adapters and the exchange. */
import type { Exchange } from '../core/exchange';
import type { Deps } from '../ports';
import type { Bindings } from '../env';

export interface GatewayCall {
  readonly request: Request;
  readonly env: Bindings;
  readonly ctx: ExecutionContext;
  readonly deps: Deps;
  readonly exchange: Exchange;
}

export type GatewayHandler = (call: GatewayCall) => Promise<Response>;
