/**
 * One run of `work` per key (its first argument) at a time. A call while a run is going asks for one more run once it ends (one at
 * most, whatever the number of calls), so what changed during a run is not missed: the driver's connection
 * coming back while a send that will fail is still waiting for its answer.
 */
export function oneRunAtATime<A extends [key: string, ...rest: unknown[]]>(
  work: (...args: A) => Promise<void>,
): (...args: A) => Promise<void> {
  const running = new Map<string, Promise<void>>();
  const next = new Map<string, Promise<void>>();
  const start = (key: string, args: A): Promise<void> => {
    const run = work(...args).finally(() => running.delete(key));
    running.set(key, run);
    return run;
  };
  return (...args) => {
    const key = args[0];
    const busy = running.get(key);
    if (!busy) return start(key, args);
    let after = next.get(key);
    if (!after) {
      after = busy
        .catch(() => undefined)
        .then(() => {
          next.delete(key);
          return start(key, args);
        });
      next.set(key, after);
    }
    return after;
  };
}
