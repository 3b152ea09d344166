/** How many of the latest events the percentiles are taken over (a fixed ring: bounded memory). */
const KEPT = 8192;

export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface FanoutSummary {
  /** Events written to at least one stream since start. */
  events: number;
  /** Largest number of streams one event was written to. */
  maxStreams: number;
  /** From the change notification arriving to the last write of the event to a socket, ms. */
  heardToLastWrite: Spread;
  /** From the log row in hand (read from the database) to the last write, ms: the fan-out's own cost. */
  readToLastWrite: Spread;
}

function spread(ring: Float64Array, n: number): Spread {
  const sorted = ring.slice(0, n).sort();
  const at = (p: number) => sorted[Math.min(n - 1, Math.floor((p / 100) * n))] ?? 0;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { p50: round(at(50)), p99: round(at(99)), max: round(sorted[n - 1] ?? 0) };
}

/**
 * The server's side of live latency, per event: measured here so that a benchmark (bench:live) can tell
 * the fan-out from its own clients' reading, and logged at shutdown for operators.
 */
export class FanoutStats {
  private events = 0;
  private maxStreams = 0;
  private readonly heard = new Float64Array(KEPT);
  private readonly read = new Float64Array(KEPT);

  record(heardToLastWrite: number, readToLastWrite: number, streams: number): void {
    const i = this.events++ % KEPT;
    this.heard[i] = heardToLastWrite;
    this.read[i] = readToLastWrite;
    if (streams > this.maxStreams) this.maxStreams = streams;
  }

  summary(): FanoutSummary {
    const n = Math.min(this.events, KEPT);
    return {
      events: this.events,
      maxStreams: this.maxStreams,
      heardToLastWrite: spread(this.heard, n),
      readToLastWrite: spread(this.read, n),
    };
  }
}
