import { describe, expect, it } from 'vitest';
import { nulPaths } from '../src/plugins/errors';
import { exceedsJsonDepth } from '../src/plugins/json-body';

/** A string stand-in that counts the characters read (exceedsJsonDepth reads only length and charCodeAt). */
function counted(value: string): { text: string; reads: () => number } {
  let reads = 0;
  const text = {
    length: value.length,
    charCodeAt(i: number) {
      reads++;
      return value.charCodeAt(i);
    },
  };
  return { text: text as unknown as string, reads: () => reads };
}

describe('exceedsJsonDepth', () => {
  const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

  it('counts arrays and objects alike, up to and past the limit', () => {
    expect(exceedsJsonDepth(nested(3), 3)).toBe(false);
    expect(exceedsJsonDepth(nested(4), 3)).toBe(true);
    expect(exceedsJsonDepth('{"a":{"b":{"c":1}}}', 3)).toBe(false);
    expect(exceedsJsonDepth('{"a":{"b":{"c":[1]}}}', 3)).toBe(true);
    expect(exceedsJsonDepth('[{"a":[{"b":1}]}]', 4)).toBe(false);
    expect(exceedsJsonDepth('[{"a":[{"b":1}]}]', 3)).toBe(true);
  });

  it('measures depth, not the number of containers', () => {
    expect(exceedsJsonDepth(`[${Array.from({ length: 10_000 }, () => '{"a":[1]}').join(',')}]`, 3)).toBe(false);
  });

  it('does not count brackets inside strings, escaped quotes and backslashes included', () => {
    expect(exceedsJsonDepth(`["${'[{'.repeat(100)}"]`, 1)).toBe(false);
    // An escaped quote does not end the string: the brackets after it are still inside it.
    expect(exceedsJsonDepth(`["\\"${'[['.repeat(50)}"]`, 1)).toBe(false);
    expect(exceedsJsonDepth(`{"k\\"[[[":"v\\\\\\"]]]{{{"}`, 1)).toBe(false);
    // An escaped backslash does: the string ends at the quote after it.
    expect(exceedsJsonDepth('["\\\\",[[1]]]', 2)).toBe(true);
    expect(exceedsJsonDepth('["\\\\",[[1]]]', 3)).toBe(false);
    for (const text of [`["\\"${'[['.repeat(50)}"]`, '{"k\\"[[[":"v\\\\\\"]]]{{{"}', '["\\\\",[[1]]]']) {
      expect(() => JSON.parse(text) as unknown, text).not.toThrow();
    }
  });

  // Counted in characters read, not timed: a stopwatch bound fails on a busy machine and passes a slow
  // algorithm on a fast one (the time of a hostile body is bench/hostile-bodies.mjs's figure).
  it('scans a megabyte of nesting in one linear pass, stopping at the first level past the limit', () => {
    const deep = counted(nested(500_000));
    expect(exceedsJsonDepth(deep.text, 64)).toBe(true);
    expect(deep.reads()).toBe(65);
    const strings = counted(`[${'"[{\\\\\\"",'.repeat(100_000)}1]`);
    expect(exceedsJsonDepth(strings.text, 64)).toBe(false);
    // Every character read at most once (an escaped one is skipped unread).
    expect(strings.reads()).toBeGreaterThan(0);
    expect(strings.reads()).toBeLessThanOrEqual(strings.text.length);
  });
});

describe('nulPaths (the NUL check behind the depth bound)', () => {
  it('names each NUL string and key in document order, with the prefix', () => {
    const value = { a: ['ok', 'x\u0000'], 'k\u0000': 1, b: { c: '\u0000' } };
    expect(nulPaths(value)).toEqual(['a.1', 'k\\u0000', 'b.c']);
    expect(nulPaths({ id: 'a\u0000' }, ['params'])).toEqual(['params.id']);
  });

  it('stays linear on a value nested 50,000 levels deep (copying the path at every level took 22 s)', () => {
    // Each level is a proxy that counts how often the walk reads it: a constant number of reads per
    // level, whatever the depth, where a walk that went back over its ancestors would read them again.
    let reads = 0;
    const levels = (depth: number) => {
      let deep: unknown = 'end\u0000';
      for (let i = 0; i < depth; i++) {
        deep = new Proxy([deep], {
          get(target, key, receiver) {
            reads++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        });
      }
      return deep;
    };
    const [shallow] = nulPaths(levels(500));
    expect(shallow?.split('.')).toHaveLength(500);
    const perLevel = reads / 500;
    reads = 0;
    const [path] = nulPaths(levels(50_000));
    expect(path?.split('.')).toHaveLength(50_000);
    expect(path).toBe(Array.from({ length: 50_000 }, () => '0').join('.'));
    expect(reads / 50_000).toBe(perLevel);
    expect(perLevel).toBeLessThanOrEqual(3);
  });
});
