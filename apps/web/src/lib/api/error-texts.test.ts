import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import { BACK_OFFICE_ERROR_TEXTS_ES } from '@hornada/domain/errors-back-office';
import { ERROR_TEXTS_ES, GENERIC_ERROR_ES } from '@hornada/domain/errors';
import { describe, expect, it } from 'vitest';
import { addErrorTexts, errorText } from './error-texts';

describe('the error texts a page knows', () => {
  it('starts with the storefront codes only, and reads the others as the general message until their area loads', () => {
    expect(errorText('orders/window-full')).toBe('Ese horario se llenó. Elige otro.');
    expect(errorText('network')).toBe(ERROR_TEXTS_ES.network);
    expect(errorText('validation')).toBe(ERROR_TEXTS_ES.validation);
    expect(errorText('auth/invalid-credential')).toBe(GENERIC_ERROR_ES);
    expect(errorText('storage/quota-exceeded')).toBe(GENERIC_ERROR_ES);

    addErrorTexts(AUTH_ERROR_TEXTS_ES);
    expect(errorText('auth/invalid-credential')).toBe('Correo o contraseña incorrectos.');
    expect(errorText('storage/quota-exceeded')).toBe(GENERIC_ERROR_ES);

    addErrorTexts(BACK_OFFICE_ERROR_TEXTS_ES);
    addErrorTexts(BACK_OFFICE_ERROR_TEXTS_ES); // a second load of the same area changes nothing
    for (const [code, text] of Object.entries(ERROR_TEXTS_ES)) expect(errorText(code), code).toBe(text);
  });

  it('reads a missing or unknown code, or an inherited property name, as the general message', () => {
    expect(errorText(undefined)).toBe(GENERIC_ERROR_ES);
    expect(errorText('something_new')).toBe(GENERIC_ERROR_ES);
    expect(errorText('toString')).toBe(GENERIC_ERROR_ES);
  });
});
