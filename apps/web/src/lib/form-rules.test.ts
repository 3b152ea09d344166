import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import { CreateBakeryInput, MeInput, PasswordChangeInput } from '@hornada/domain/identity';
import { B2bClientInput } from '@hornada/domain/schemas/b2b';
import type { FieldValues, ResolverOptions } from 'react-hook-form';
import { describe, expect, it, vi } from 'vitest';
import { addErrorTexts } from './api/error-texts';
import { applyServerErrors, domainResolver, nitProblem, passwordProblem } from './form-rules';
import { ApiError } from './api/http';

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

describe('the NIT under its field', () => {
  it('names the right check digit when the one typed is wrong, and the format when there is none', async () => {
    expect(nitProblem('900.123.456-1')).toBe('El dígito de verificación no corresponde a este NIT: debería ser 8.');
    expect(nitProblem('900123456')).toBe('Escribe el NIT con su dígito de verificación, por ejemplo 900123456-8.');
    const resolve = domainResolver(B2bClientInput);
    const wrong = await resolve({ businessName: 'Café', taxId: '800197268-5' }, undefined, options);
    expect(wrong.errors).toMatchObject({
      taxId: { message: 'El dígito de verificación no corresponde a este NIT: debería ser 4.' },
    });
    expect((await resolve({ businessName: 'Café', taxId: '800197268-4' }, undefined, options)).errors).toEqual({});
  });

  it("puts the server's NIT refusal under the field in Spanish", () => {
    const setError = vi.fn();
    const err = new ApiError('Validation failed', 400, 'validation', 'Revisa los datos.', {
      details: [
        { path: 'taxId', message: 'Invalid NIT: expected digits, a dash and a correct check digit (900123456-7)' },
      ],
    });
    expect(applyServerErrors(err, (p) => p === 'taxId', setError)).toBeNull();
    expect(setError).toHaveBeenCalledWith(
      'taxId',
      { type: 'server', message: 'El NIT o su dígito de verificación no es válido.' },
      { shouldFocus: true },
    );
  });
});
