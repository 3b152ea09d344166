import { email, password, UserUpdateInput } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { z } from 'zod';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, PasswordField, TextField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth-store';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError } from '../../lib/http';

/** What the server checks on a company admin's registration (spec §5), from the domain's own pieces. */
const SignupSchema = z.object({ name: UserUpdateInput.shape.name, email: email(), password: password() });

interface SignupForm {
  name: string;
  email: string;
  password: string;
}

const FIELDS: readonly string[] = ['name', 'email', 'password'];
const EMAIL_IN_USE = 'Ya existe una cuenta con ese correo. Inicia sesión o usa otro correo.';

/** `/signup` (spec §2, guest only): a bakery owner makes their account, then creates the bakery. */
export function Component() {
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignupForm>({
    resolver: domainResolver(SignupSchema),
    defaultValues: { name: '', email: '', password: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      await authStore
        .getState()
        .signupAdmin({ name: form.name.trim(), email: form.email.trim(), password: form.password });
      await navigate(paths.createBakery, { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'auth/email-in-use') {
        setError('email', { type: 'server', message: EMAIL_IN_USE }, { shouldFocus: true });
        return;
      }
      setFormError(applyServerErrors(err, (p) => FIELDS.includes(p), setError));
    }
  });

  return (
    <AuthCard title="Crear cuenta" subtitle="Registra tu panadería en Hornada. Primero, tu cuenta de administrador.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormAlert>{formError}</FormAlert>
        <TextField
          id="signup-name"
          label="Tu nombre"
          autoComplete="name"
          registration={register('name')}
          error={errors.name?.message}
        />
        <TextField
          id="signup-email"
          label="Correo electrónico"
          type="email"
          inputMode="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email?.message}
        />
        <PasswordField
          id="signup-password"
          label="Contraseña"
          autoComplete="new-password"
          registration={register('password')}
          hint={PASSWORD_RULES_ES}
          error={errors.password?.message}
        />
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? 'Creando cuenta…' : 'Crear cuenta'}
        </button>
      </form>
      <p className="mt-6 text-center text-stone-700">
        Esta cuenta es para dueños de panaderías. ¿Vas a comprar?{' '}
        <Link to={paths.shopperSignup} className="font-semibold text-amber-900 underline underline-offset-2">
          Crea tu cuenta de cliente
        </Link>
      </p>
      <p className="mt-3 text-center text-stone-700">
        ¿Ya tienes cuenta?{' '}
        <Link to={paths.login} className="font-semibold text-amber-900 underline underline-offset-2">
          Inicia sesión
        </Link>
      </p>
    </AuthCard>
  );
}
