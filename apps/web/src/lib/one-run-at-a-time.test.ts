import { describe, expect, it } from 'vitest';
import { oneRunAtATime } from './one-run-at-a-time';

/** A run that ends when the test says, and what each run saw. */
function gatedWork() {
  const runs: string[] = [];
  const gates: (() => void)[] = [];
  const work = (key: string, what: string) =>
    new Promise<void>((resolve) => {
      runs.push(`${key}:${what}`);
      gates.push(resolve);
    });
  return { runs, work, open: (i: number) => gates[i]!() };
}

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('oneRunAtATime', () => {
  it('runs once more after a run during which it was asked again, however often, and not before', async () => {
    const { runs, work, open } = gatedWork();
    const flush = oneRunAtATime(work);
    const first = flush('ana', 'sending offline');
    const second = flush('ana', 'online');
    const third = flush('ana', 'online again');
    await tick();
    expect(runs).toEqual(['ana:sending offline']);
    expect(second).toBe(third);
    open(0);
    await first;
    await tick();
    expect(runs).toEqual(['ana:sending offline', 'ana:online']);
    open(1);
    await second;
    // Nothing asked meanwhile: no third run.
    await tick();
    expect(runs).toHaveLength(2);
  });

  it('runs other keys beside each other, and goes on after a run that failed', async () => {
    const runs: string[] = [];
    let fail = true;
    const flush = oneRunAtATime(async (key: string) => {
      runs.push(key);
      await tick();
      if (fail && key === 'ana') {
        fail = false;
        throw new Error('sin señal');
      }
    });
    const failing = flush('ana');
    const other = flush('beto');
    const again = flush('ana');
    await expect(failing).rejects.toThrow('sin señal');
    await other;
    await again;
    expect(runs).toEqual(['ana', 'beto', 'ana']);
  });
});
