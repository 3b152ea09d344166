import { describe, expect, it } from 'vitest';
import { nulPaths } from '../src/plugins/errors';
import { exceedsJsonDepth } from '../src/plugins/json-body';

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

  it('scans a megabyte of nesting in one linear pass', () => {
    const started = performance.now();
    expect(exceedsJsonDepth(nested(500_000), 64)).toBe(true);
    expect(exceedsJsonDepth(`[${'"[{\\\\\\"",'.repeat(100_000)}1]`, 64)).toBe(false);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('nulPaths (the NUL check behind the depth bound)', () => {
  it('names each NUL string and key in document order, with the prefix', () => {
    const value = { a: ['ok', 'x\u0000'], 'k\u0000': 1, b: { c: '\u0000' } };
    expect(nulPaths(value)).toEqual(['a.1', 'k\\u0000', 'b.c']);
    expect(nulPaths({ id: 'a\u0000' }, ['params'])).toEqual(['params.id']);
  });

  it('stays linear on a value nested 50,000 levels deep (copying the path at every level took 22 s)', () => {
    let deep: unknown = 'end\u0000';
    for (let i = 0; i < 50_000; i++) deep = [deep];
    const started = performance.now();
    const [path] = nulPaths(deep);
    expect(path?.split('.')).toHaveLength(50_000);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
