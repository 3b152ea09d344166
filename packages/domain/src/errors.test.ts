import { describe, expect, it } from 'vitest';
import { AUTH_ERROR_TEXTS_ES } from './errors-auth';
import { BACK_OFFICE_ERROR_TEXTS_ES } from './errors-back-office';
import { STOREFRONT_ERROR_TEXTS_ES } from './errors-storefront';
import { codeForStatus } from './error-status';
import { ERROR_TEXTS_ES, errorTextEs, GENERIC_ERROR_ES, isErrorCode, type ErrorCode } from './errors';

describe('errorTextEs', () => {
  // The server's AppError takes only these codes (its `code` is an ErrorCode), so walking this list walks every
  // code the API and the web client can raise: a new one needs its text here to compile at all.
  it('has a Spanish text of its own for every code the API and the web client raise', () => {
    const codes = Object.keys(ERROR_TEXTS_ES) as ErrorCode[];
    // The areas a hand-kept copy once missed are in the walk.
    expect(codes).toEqual(
      expect.arrayContaining([
        'orders/window-full',
        'orders/idempotency-mismatch',
        'storage/quota-exceeded',
        'auth/invalid-credential',
      ]),
    );
    for (const code of codes) {
      expect(code, code).toMatch(/^[a-z_]+$|^[a-z]+\/[a-z-]+$/);
      expect(isErrorCode(code), code).toBe(true);
      const text = errorTextEs(code);
      expect(text, code).toBe(ERROR_TEXTS_ES[code]);
      expect(text, code).not.toBe(GENERIC_ERROR_ES);
      expect(text, code).toMatch(/^[A-ZÁÉÍÓÚÑ¿¡].*[.?!]$/);
    }
  });
  it('says what the person sees on sign-in', () => {
    expect(errorTextEs('auth/invalid-credential')).toBe('Correo o contraseña incorrectos.');
    expect(errorTextEs('auth/user-disabled')).toBe('Esta cuenta está deshabilitada.');
  });
  it('falls back to the general Spanish message', () => {
    expect(errorTextEs(undefined)).toBe(GENERIC_ERROR_ES);
    expect(errorTextEs('something_new')).toBe(GENERIC_ERROR_ES);
    expect(errorTextEs('toString')).toBe(GENERIC_ERROR_ES);
  });
});

describe('the texts by area', () => {
  const areas = [STOREFRONT_ERROR_TEXTS_ES, AUTH_ERROR_TEXTS_ES, BACK_OFFICE_ERROR_TEXTS_ES];
  it('spell each code once: no area overrides another in the union the server reads', () => {
    const codes = areas.flatMap((area) => Object.keys(area));
    expect(new Set(codes).size).toBe(codes.length);
    expect(Object.keys(ERROR_TEXTS_ES).sort()).toEqual(codes.sort());
  });
  it('put the codes of sign-in and of the back office outside the storefront', () => {
    const storefront = Object.keys(STOREFRONT_ERROR_TEXTS_ES);
    expect(storefront.filter((c) => c.startsWith('auth/') || c.startsWith('storage/'))).toEqual([]);
    expect(Object.keys(AUTH_ERROR_TEXTS_ES).every((c) => c.startsWith('auth/'))).toBe(true);
  });
});

describe('codeForStatus', () => {
  it('maps a status without a code to the code the API would send', () => {
    expect(codeForStatus(401)).toBe('unauthenticated');
    expect(codeForStatus(403)).toBe('forbidden');
    expect(codeForStatus(404)).toBe('not_found');
    expect(codeForStatus(413)).toBe('payload_too_large');
    expect(codeForStatus(429)).toBe('rate_limited');
    expect(codeForStatus(502)).toBe('unavailable');
    expect(codeForStatus(500)).toBe('internal');
    expect(codeForStatus(418)).toBe('bad_request');
  });
});
