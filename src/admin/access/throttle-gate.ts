/**
 * The isolate's side of admin-token throttling: the counts live in the
 * ThrottleStore (one Durable Object per client, shared by every isolate), and
 * this gate keeps what it last learnt about each client so that:
 * - a blocked client costs no store call per attempt (refused from memory);
 * - an unblocked client's right token costs at most one status read per
 *   STATUS_TTL_MS per isolate; only failures write.
 * The trade-off: a block set through another isolate is seen here up to
 * STATUS_TTL_MS late. That admits at most one more evaluated guess per isolate
 * (the failure's write returns the block, which is then cached), and a right
 * token from a blocked client may pass within that time. Failures are also
 * counted in the isolate, so a burst is stopped here even before the store
 * answers.
 *
 * Fail open: if the store errs or is slower than STORE_TIMEOUT_MS, the attempt
 * is judged on the token alone (the isolate's own count still applies). The
 * token's entropy is the real defence; a broken counter must not lock the
 * operator out of the admin API.
 */
import { within } from '../../util/within';
import { addFailure, type FailureWindow, type ThrottleStore } from '../../core/throttle-protocol';
import { clientOf } from './throttle';

export const STATUS_TTL_MS = 5_000;
export const STORE_TIMEOUT_MS = 1_000;
const MAX_CLIENTS = 10_000;

interface Known {
  /** The block's end as last learnt from the store or counted here (0: none). */
  blockedUntil: number;
  /** Until when blockedUntil may be trusted without asking the store again. */
  freshUntil: number;
  /** Failures seen by this isolate. */
  local: FailureWindow | null;
}

export class ThrottleGate {
  private readonly clients = new Map<string, Known>();

  constructor(
    private readonly store: ThrottleStore,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * One guess at an admin token from the client behind `headers`, throttled:
   * `judge` answers who the token belongs to (null: nobody). The answer for the
   * right token; 'wrong' for a wrong one that does not block the client; else
   * the seconds the client must wait (blocked before the guess was judged, or
   * by this guess). Both doors that take a token use this.
   */
  async verify<T>(headers: Headers, judge: () => Promise<T | null>): Promise<T | 'wrong' | number> {
    const client = clientOf(headers);
    const wait = await this.check(client);
    if (wait > 0) return wait;
    const who = await judge();
    if (who !== null) return who;
    const blocked = await this.failed(client);
    return blocked > 0 ? blocked : 'wrong';
  }

  /** Before the token is compared: seconds the client must wait, or 0 to go ahead. */
  async check(client: string): Promise<number> {
    const known = this.clients.get(client);
    const now = this.now();
    if (known && known.blockedUntil > now) return secondsUntil(known.blockedUntil, now);
    if (known && known.freshUntil > now) return 0;
    const remote = await this.ask(() => this.store.blockedUntil(client));
    return this.learn(client, known?.local ?? null, remote);
  }

  /** After a wrong token: records it; seconds the client must now wait, or 0. */
  async failed(client: string): Promise<number> {
    const local = addFailure(this.clients.get(client)?.local ?? null, this.now());
    this.learn(client, local, 0);
    const remote = await this.ask(() => this.store.fail(client));
    return this.learn(client, local, remote);
  }

  private learn(client: string, local: FailureWindow | null, remote: number): number {
    const now = this.now();
    if (!this.clients.has(client) && this.clients.size >= MAX_CLIENTS) this.clients.clear();
    const blockedUntil = Math.max(remote, local?.blockedUntil ?? 0);
    this.clients.set(client, { blockedUntil, freshUntil: now + STATUS_TTL_MS, local });
    return blockedUntil > now ? secondsUntil(blockedUntil, now) : 0;
  }

  private async ask(call: () => Promise<number>): Promise<number> {
    try {
      return await within(STORE_TIMEOUT_MS, call(), () => 0);
    } catch (err) {
      console.error('admin throttle store failed', err instanceof Error ? err.message : String(err));
      return 0;
    }
  }
}

const secondsUntil = (until: number, now: number) => Math.max(1, Math.ceil((until - now) / 1000));
