/** Time comes from here so tests can set it (docs/design.md §8: injectable clock). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** The system time moved by `offsetMs` (the browser tests' other day and hour); the system clock itself at 0. */
export function offsetClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => new Date(Date.now() + offsetMs) };
}
