/**
 * A token bucket of source-of-truth reads that found nothing, per isolate: a
 * flood of names that exist nowhere may cost this many D1 reads at once, then
 * a steady rate, and no more. Known entries never spend it. Shared by the key
 * store and the route store, each with its own numbers.
 */
export class MissBudget {
  private tokens: number;

  constructor(
    private readonly burst: number,
    private readonly perSecond: number,
    private at: number,
  ) {
    this.tokens = burst;
  }

  available(now: number): boolean {
    this.tokens = Math.min(this.burst, this.tokens + (Math.max(0, now - this.at) / 1000) * this.perSecond);
    this.at = Math.max(this.at, now);
    return this.tokens >= 1;
  }

  spend(now: number): void {
    this.available(now);
    this.tokens = Math.max(0, this.tokens - 1);
  }
}
