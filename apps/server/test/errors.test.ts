/** The API's error codes are the domain's: the web has a Spanish text for each (packages/domain errors.ts). */
import { describe, expect, it } from 'vitest';
import { ERROR_TEXTS_ES, isErrorCode } from '@hornada/domain';
import { AppError, badRequest, conflict, forbidden, notFound, unauthenticated } from '../src/lib/errors';

describe('AppError codes', () => {
  it('takes only a code of the domain: a mistyped one does not compile', () => {
    // @ts-expect-error: not a code of ERROR_TEXTS_ES (typecheck fails here if AppError accepted any string).
    const mistyped = new AppError(422, 'orders/window-ful', 'This window is full');
    expect(isErrorCode(mistyped.code)).toBe(false);
    expect(new AppError(422, 'orders/window-full', 'This window is full').code).toBe('orders/window-full');
  });

  it('gives every helper a code the web can put in Spanish', () => {
    for (const err of [badRequest('x'), unauthenticated(), forbidden(), notFound(), conflict('x')]) {
      expect(Object.hasOwn(ERROR_TEXTS_ES, err.code), err.code).toBe(true);
      expect(err.toBody().code).toBe(err.code);
    }
  });
});
