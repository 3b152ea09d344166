/**
 * Nominatim's usage policy allows at most one request a second from an application. Every caller in the
 * process waits its turn here: each gets a start time at least `intervalMs` after the previous one's.
 */
export class IntervalLimiter {
  private nextAt = 0;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  /** Resolves when the caller may start; the slot is reserved synchronously so concurrent callers queue. */
  async acquire(): Promise<void> {
    const now = this.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + this.intervalMs;
    if (at > now) await this.sleep(at - now);
  }
}
