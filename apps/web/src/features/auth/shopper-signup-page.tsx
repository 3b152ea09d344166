import { ShopperSignUpInput } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, PasswordField, TextField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth-store';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError } from '../../lib/http';
import { toastStore } from '../../lib/toast-store';

/** What the server checks (POST /api/identity/shoppers), the domain's own schema. */
const SignupSchema = ShopperSignUpInput;

interface SignupForm {
  name: string;
  email: string;
  password: string;
}

const FIELDS: readonly string[] = ['name', 'email', 'password'];
const EMAIL_IN_USE = 'Ya existe una cuenta con ese correo. Inicia sesión o usa otro correo.';

/**
 * `/registro` (issue 29, guest only): a shopper makes their customer account at this shop, is signed in, and
 * is mailed a link to confirm the e-mail; then back to where they were shopping.
 */
export function Component() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
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
        .signupShopper({ name: form.name.trim(), email: form.email.trim(), password: form.password });
      toastStore.getState().show({
        type: 'success',
        title: 'Tu cuenta está lista',
        message: 'Te enviamos un correo para confirmar tu dirección.',
        duration: 8000,
      });
      await navigate(safeRedirect(search.get('redirect')), { replace: true });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'auth/email-in-use') {
        setError('email', { type: 'server', message: EMAIL_IN_USE }, { shouldFocus: true });
        return;
      }
      setFormError(applyServerErrors(err, (p) => FIELDS.includes(p), setError));
    }
  });

  return (
    <AuthCard title="Crea tu cuenta" subtitle="Pide más rápido: tus datos y direcciones quedan guardados.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormAlert>{formError}</FormAlert>
        <TextField
          id="shopper-name"
          label="Nombre"
          autoComplete="name"
          registration={register('name')}
          error={errors.name?.message}
        />
        <TextField
          id="shopper-email"
          label="Correo electrónico"
          type="email"
          inputMode="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email?.message}
        />
        <PasswordField
          id="shopper-password"
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
        ¿Ya tienes cuenta?{' '}
        <Link to={paths.login} className="font-semibold text-amber-900 underline underline-offset-2">
          Inicia sesión
        </Link>
      </p>
    </AuthCard>
  );
}

/** Back to a path of this site only (never another origin); the shop's home otherwise. */
function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : paths.home;
}
