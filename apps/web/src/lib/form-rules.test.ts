import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import { CreateBakeryInput, MeInput, PasswordChangeInput } from '@hornada/domain/identity';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { addErrorTexts } from './error-texts';
import { applyServerErrors, domainResolver, passwordProblem } from './form-rules';
import { ApiError } from './http';

// The profile page meets the sign-in codes with the auth store loaded, which adds their texts.
addErrorTexts(AUTH_ERROR_TEXTS_ES);

const options = {} as ResolverOptions<FieldValues>;

async function errorsOf(resolver: ReturnType<typeof domainResolver>, values: FieldValues) {
  const result = await resolver(values, undefined, options);
  return result.errors;
}

describe('forms checked with the domain schemas, in Spanish', () => {
  it('says the password rules plainly, counting characters as people do', () => {
    expect(passwordProblem('corto')).toBe('La contraseña debe tener al menos 8 caracteres.');
    expect(passwordProblem('ñandú-🍞-ok')).toBeNull();
    expect(passwordProblem('x'.repeat(129))).toBe('La contraseña debe tener como máximo 128 caracteres.');
  });

  it('puts a Spanish message under each field the schema refuses', async () => {
    const errors = await errorsOf(domainResolver(PasswordChangeInput), { currentPassword: 'a', newPassword: '123' });
    expect(errors).toEqual({
      newPassword: { type: 'custom', message: 'La contraseña debe tener al menos 8 caracteres.' },
    });
    const bakery = await errorsOf(domainResolver(CreateBakeryInput), {
      name: '   ',
      phone: '1'.repeat(41),
      whatsapp: null,
      address: null,
    });
    expect(bakery.name?.message).toBe('Este campo es obligatorio.');
    expect(bakery.phone?.message).toBe('Debe tener como máximo 40 caracteres.');
  });

  it('nests errors of list items as react-hook-form reads them, after turning the form into the input', async () => {
    const resolver = domainResolver(MeInput, (form) => ({
      addresses: [{ line: '', lat: Number(form.lat) }],
    }));
    const errors = await errorsOf(resolver, { lat: 'norte' });
    const [first] = errors.addresses as unknown as { line: { message: string }; lat: { message: string } }[];
    expect(first?.line.message).toBe('Este campo es obligatorio.');
    expect(first?.lat.message).toBe('Escribe un número.');
  });

  it("maps the server's details to the fields it names, and says the rest for the whole form", () => {
    const setError = vi.fn();
    const wrong = new ApiError('The current password is not correct', 400, 'auth/wrong-password', 'x', {
      details: [{ path: 'currentPassword', message: 'Not correct' }],
    });
    expect(applyServerErrors(wrong, (p) => p === 'currentPassword', setError)).toBeNull();
    expect(setError).toHaveBeenCalledWith(
      'currentPassword',
      { type: 'server', message: 'La contraseña actual no es correcta.' },
      { shouldFocus: true },
    );

    const limited = new ApiError('Too many attempts', 429, 'rate_limited', 'Demasiados intentos.', {});
    expect(applyServerErrors(limited, () => true, vi.fn())).toBe('Demasiados intentos.');
  });
});
