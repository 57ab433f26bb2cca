/**
 * Stage 3, limits: reserve the worst case before the upstream call. The
 * reservation's settlement is registered on the exchange as it is taken, so it
 * runs exactly once at the exit, with what the answer really used: nothing
 * when there was no answer (released), no tokens for a cache hit (the request
 * still counts toward request rates), and for an upstream answer its usage and
 * how its delivery ended (a cut stream is charged what was delivered).
 */
import type { Ending, Exchange } from '../core/exchange';
import {
  type Limiter,
  NOTHING_RESERVED,
  type RequestScope,
  type Reservation,
  type StreamEnd,
} from '../core/limiter';
import type { Principal } from '../core/principal';
import type { ProxyRequest } from '../core/request';
import { NO_USAGE, type Usage } from '../core/usage';

export async function reserve(
  x: Exchange,
  limiter: Limiter,
  principal: Principal,
  request: ProxyRequest,
  models?: readonly string[],
  scope?: RequestScope,
): Promise<Reservation> {
  const reservation = await limiter.reserve(principal, request, models, scope);
  if (reservation.background) x.keep(reservation.background);
  // A key without limits holds nothing, so there is nothing to settle.
  if (reservation !== NOTHING_RESERVED) {
    x.defer((ending) => {
      const { usage, delivery } = chargeFor(ending);
      // The model that answered is what is charged (a route's targets have prices of their own).
      return reservation.settle(usage, delivery, x.target ?? undefined);
    });
  }
  return reservation;
}

/** What an ended request is charged (pure). */
function chargeFor(ending: Ending): { usage: Usage | null; delivery: StreamEnd | undefined } {
  const answer = ending.answer;
  if (!answer) return { usage: null, delivery: undefined };
  if (!answer.delivery) return { usage: NO_USAGE, delivery: undefined };
  return { usage: answer.usage, delivery: answer.delivery };
}
