/**
 * The leases one isolate holds, one slot per key (pure state, no I/O; the
 * limits adapter, src/limits/durable-limiter.ts, does the asking).
 *
 * A slot holds the key's current lease, the acquisition in flight (so a burst
 * that finds the lease spent waits for one answer instead of each asking the
 * object), and the key's recent demand in this isolate, which sizes the next
 * lease: twice the requests seen in the busier of the last two admission
 * windows. A key sending one request a minute asks for a lease of 1 — a plain
 * reservation — so leases appear only where they save round trips. A slot is
 * bound to the settings it was made for: when the key's or tenant's limits
 * change (a new key record), its lease stops admitting and a new one is asked.
 */
import type { Principal } from '../core/principal';
import type { Lease } from './lease';

const MAX_SLOTS = 10_000;

export interface LeaseSlot {
  readonly settings: readonly object[];
  lease: Lease | null;
  acquiring: Promise<Lease | null> | null;
  /** Demand: requests seen in the current admission window and the one before. */
  windowStart: number;
  current: number;
  previous: number;
}

export class LeaseBook {
  readonly #slots = new Map<string, LeaseSlot>();
  readonly #windowMs: number;

  /** `windowMs`: how long a lease admits requests (LIMITS_LEASE_MS). */
  constructor(windowMs: number) {
    this.#windowMs = windowMs;
  }

  /**
   * The key's slot for requests checked against the same scopes (`scopes`: their ids, beyond the key's
   * and tenant's, and whether downgraded), counting this request toward its demand.
   */
  slot(principal: Principal, now: number, scopes = ''): LeaseSlot {
    const settings = [
      principal.limits,
      principal.budgets,
      principal.tenantLimits,
      principal.tenantBudgets,
      principal.scopes,
      principal.tenantScopes,
    ];
    const name = scopes === '' ? principal.id : `${principal.id}\n${scopes}`;
    let slot = this.#slots.get(name);
    if (!slot || slot.settings.some((s, i) => s !== settings[i])) {
      slot?.lease?.close();
      if (!slot && this.#slots.size >= MAX_SLOTS) this.#evict(now);
      slot = { settings, lease: null, acquiring: null, windowStart: now, current: 0, previous: 0 };
      this.#slots.set(name, slot);
    }
    const elapsed = now - slot.windowStart;
    if (elapsed >= this.#windowMs) {
      slot.previous = elapsed >= 2 * this.#windowMs ? 0 : slot.current;
      slot.current = 0;
      slot.windowStart = now;
    }
    slot.current += 1;
    return slot;
  }

  /**
   * How many requests the next lease of this slot should admit: 1 (a plain
   * reservation) until the key sends two requests within one window.
   */
  want(slot: LeaseSlot): number {
    const busiest = Math.max(slot.current, slot.previous);
    return busiest >= 2 ? 2 * busiest : 1;
  }

  /** Drops the slots with no lease admitting (their leases still report through their requests). */
  #evict(now: number): void {
    for (const [id, slot] of this.#slots)
      if (!slot.acquiring && !slot.lease?.open(now)) this.#slots.delete(id);
    if (this.#slots.size >= MAX_SLOTS) this.#slots.clear();
  }
}
