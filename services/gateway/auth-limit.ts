// Failed-token throttling per source address: after `maxFailures` bad or
// missing Bearer tokens within `windowMs`, that source gets 429 (with
// Retry-After) for every /exec until the window has passed — guessing tokens
// costs time. Memory is bounded: the oldest sources are dropped first.
export interface AuthLimitOptions {
  maxFailures: number;
  windowMs: number;
  maxSources: number;
}

const DEFAULTS: AuthLimitOptions = { maxFailures: 10, windowMs: 60_000, maxSources: 10_000 };

export class AuthLimiter {
  private readonly failures = new Map<string, number[]>();
  private readonly opts: AuthLimitOptions;

  constructor(opts: Partial<AuthLimitOptions> = {}) {
    this.opts = { ...DEFAULTS, ...opts };
  }

  private recent(source: string, now: number): number[] {
    const times = (this.failures.get(source) ?? []).filter((t) => now - t < this.opts.windowMs);
    if (times.length === 0) this.failures.delete(source);
    else this.failures.set(source, times);
    return times;
  }

  /** Seconds to wait when this source is blocked, else 0. */
  blockedFor(source: string, now = Date.now()): number {
    const times = this.recent(source, now);
    if (times.length < this.opts.maxFailures) return 0;
    const oldest = times[times.length - this.opts.maxFailures] ?? now;
    return Math.max(1, Math.ceil((oldest + this.opts.windowMs - now) / 1000));
  }

  fail(source: string, now = Date.now()): void {
    const times = this.recent(source, now);
    times.push(now);
    this.failures.delete(source);
    this.failures.set(source, times.slice(-this.opts.maxFailures));
    if (this.failures.size > this.opts.maxSources) {
      const oldest = this.failures.keys().next().value;
      if (oldest !== undefined) this.failures.delete(oldest);
    }
  }
}
