import type { RateLimiterAbstract } from "rate-limiter-flexible";

/** What a request-per-minute check found: admitted or not, the requests left and when the window starts again. */
export interface RequestCount {
  admitted: boolean;
  remaining: number;
  resetMs: number;
}

/** Points of one key's window this process took from the shared counter. */
interface Lease {
  granted: number;
  used: number;
  /** The shared counter's total when the lease was taken (this lease included). */
  counted: number;
  /** When the shared counter's window ends (the app's clock, ms): the lease ends with it. */
  expiresAt: number;
}

/**
 * Requests per minute, shared by every process on the database without a query per request: a
 * process takes a lease of `leaseSize(limit)` requests at a time from the shared counter
 * (rate-limiter-flexible's `consume`, one atomic upsert) and admits requests against it in
 * memory. A request is admitted only against a leased point, so all processes together never
 * admit more than the limit in a window; points a process leased and did not use are lost to the
 * others until the window ends. Concurrent requests of one process share one lease query.
 */
export class RequestLeases {
  private readonly leases = new Map<string, Lease>();
  private readonly taking = new Map<string, Promise<void>>();

  constructor(
    private readonly counter: RateLimiterAbstract,
    private readonly leaseSize: (limit: number) => number,
    /** The app's clock (ms), which leases end by. */
    private readonly now: () => number,
  ) {}

  async count(key: string, limit: number): Promise<RequestCount> {
    for (;;) {
      const now = this.now();
      const lease = this.leases.get(key);
      if (lease && lease.expiresAt > now) {
        const resetMs = lease.expiresAt - now;
        if (lease.used < lease.granted) {
          lease.used++;
          return { admitted: true, remaining: remaining(lease, limit), resetMs };
        }
        if (lease.counted >= limit) return { admitted: false, remaining: 0, resetMs };
      }
      const taking = this.taking.get(key) ?? this.take(key, limit);
      await taking;
    }
  }

  private take(key: string, limit: number): Promise<void> {
    const size = Math.max(1, Math.min(limit, this.leaseSize(limit)));
    const taking = this.counter
      .consume(key, size)
      .then((res) => {
        const before = res.consumedPoints - size;
        this.leases.set(key, {
          granted: Math.max(0, Math.min(size, limit - before)),
          used: 0,
          counted: res.consumedPoints,
          expiresAt: this.now() + Math.max(1, res.msBeforeNext),
        });
      })
      .finally(() => this.taking.delete(key));
    this.taking.set(key, taking);
    return taking;
  }
}

/** This lease's unused points, and what the shared counter had left when it was taken. */
function remaining(lease: Lease, limit: number): number {
  return lease.granted - lease.used + Math.max(0, limit - lease.counted);
}
