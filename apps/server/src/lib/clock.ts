/** Time comes from here so tests can set it (design §8: injectable clock). */
export interface Clock {
  now(): Date;
}
export const systemClock: Clock = { now: () => new Date() };
