/** Time comes from here so tests can set it (docs/design.md §8: injectable clock). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };

/** The system time moved by `offsetMs` (the browser tests' other day and hour); the system clock itself at 0. */
export function offsetClock(offsetMs: number): Clock {
  return offsetMs === 0 ? systemClock : { now: () => new Date(Date.now() + offsetMs) };
}

/** A clock held at an instant while one is set, else `base`: a replay's writes carry the instants they replay. */
export interface SettableClock extends Clock {
  /** Holds the clock at `at`; null lets it follow `base` again. */
  set(at: Date | null): void;
}

export function settableClock(base: Clock): SettableClock {
  let held: Date | null = null;
  return {
    now: () => (held ? new Date(held) : base.now()),
    set: (at) => {
      held = at ? new Date(at) : null;
    },
  };
}
