/** Database failures a caller may retry are 503s with Retry-After, never a 500 (docs/design.md §3). */
import { describe, expect, it } from 'vitest';
import { fromDatabaseError } from '../src/lib/errors';

const wrapped = (cause: unknown) => Object.assign(new Error('Failed query: select 1'), { cause });

describe('database errors', () => {
  it('answers 503 when no connection can be had: pool exhausted, refused, cut, server restarting', () => {
    const cases = [
      new Error('timeout exceeded when trying to connect'),
      Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:5432'), { code: 'ECONNREFUSED' }),
      new Error('Connection terminated unexpectedly'),
      wrapped(Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' })),
      wrapped(Object.assign(new Error('the database system is starting up'), { code: '57P03' })),
      wrapped(Object.assign(new Error('connection failure'), { code: '08006' })),
    ];
    for (const err of cases) {
      const answer = fromDatabaseError(wrapped(err));
      expect(answer?.statusCode, String(err)).toBe(503);
      expect(answer?.headers?.['retry-after']).toBe('5');
    }
  });

  it('leaves errors that are not the database alone', () => {
    expect(fromDatabaseError(new Error('something else'))).toBeNull();
    expect(fromDatabaseError(Object.assign(new Error('x'), { code: 'EPIPE' }))).toBeNull();
  });
});
