import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { z } from 'zod';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, TextField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { SuccessNotice } from './notices';
import { domainResolver } from '../../lib/form-rules';
import { ApiError, http } from '../../lib/api/http';

const RecoverySchema = z.object({ email: z.email('Invalid email address').max(254) });

/**
 * `/recuperar-contrasena` (docs/design.md §3): asks for the e-mail and always says the same, whether or not an
 * account has it (the server answers alike too); the link arrives by e-mail.
 */
export function Component() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<{ email: string }>({
    resolver: domainResolver(RecoverySchema),
    defaultValues: { email: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async ({ email }) => {
    setFormError(null);
    try {
      await http.post('/identity/password-reset', { email: email.trim() });
      setSentTo(email.trim());
    } catch (err) {
      setFormError(err instanceof ApiError ? err.userMessage : 'No pudimos enviar la solicitud. Intenta de nuevo.');
    }
  });

  return (
    <AuthCard title="Recuperar contraseña" subtitle="Te enviaremos un enlace para elegir una contraseña nueva.">
      {sentTo ? (
        <SuccessNotice title="Revisa tu correo">
          <p>
            Si existe una cuenta con <strong className="break-all">{sentTo}</strong>, te enviamos un enlace para
            restablecer la contraseña. Vence en 30 minutos y sirve una sola vez.
          </p>
        </SuccessNotice>
      ) : (
        <form onSubmit={submit} noValidate className="space-y-4">
          <FormAlert>{formError}</FormAlert>
          <TextField
            id="recovery-email"
            label="Correo electrónico"
            type="email"
            inputMode="email"
            autoComplete="email"
            registration={register('email')}
            error={errors.email?.message}
          />
          <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
            {isSubmitting ? 'Enviando…' : 'Enviar enlace'}
          </button>
        </form>
      )}
      <p className="mt-6 text-center text-stone-700">
        <Link to={paths.login} className="font-semibold text-amber-900 underline underline-offset-2">
          Volver a iniciar sesión
        </Link>
      </p>
    </AuthCard>
  );
}
