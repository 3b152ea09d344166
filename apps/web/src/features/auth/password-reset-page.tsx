import { password } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, PasswordField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { BakeryChoice, useMadeBy } from './bakery-choice';
import { ActionLink, ErrorNotice, SuccessNotice } from './notices';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError, http } from '../../lib/http';

const ResetSchema = z.object({ password: password() });

/** Codes after which this link cannot be used again: the page offers a new one instead of the form. */
const LINK_CODES = new Set(['auth/invalid-action-code', 'auth/expired-action-code']);

/**
 * `/restablecer-contrasena?token=…` (design §3): a new password; every session of the account ends. For an
 * account a bakery made for this address, the owner also says whether to stay in that bakery (bakery-choice).
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const madeBy = useMadeBy(token);
  const [accept, setAccept] = useState(false);
  const [done, setDone] = useState(false);
  const [linkError, setLinkError] = useState<string | null>(token ? null : 'Este enlace no es válido. Pide uno nuevo.');
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<{ password: string }>({
    resolver: domainResolver(ResetSchema),
    defaultValues: { password: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      await http.post('/identity/password-reset/confirm', {
        token,
        password: form.password,
        ...(madeBy ? { accept } : {}),
      });
      setDone(true);
    } catch (err) {
      if (err instanceof ApiError && LINK_CODES.has(err.code ?? '')) setLinkError(err.userMessage);
      else setFormError(applyServerErrors(err, (p) => p === 'password', setError));
    }
  });

  let body;
  if (done) {
    body = (
      <SuccessNotice title="Tu contraseña cambió">
        <p>Cerramos las sesiones abiertas en otros dispositivos. Inicia sesión con tu contraseña nueva.</p>
        <ActionLink to={paths.login}>Iniciar sesión</ActionLink>
      </SuccessNotice>
    );
  } else if (linkError) {
    body = (
      <ErrorNotice message={linkError}>
        <ActionLink to={paths.passwordRecovery}>Pedir un enlace nuevo</ActionLink>
      </ErrorNotice>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormAlert>{formError}</FormAlert>
        {madeBy ? <BakeryChoice madeBy={madeBy} accept={accept} onChange={setAccept} /> : null}
        <PasswordField
          id="reset-password"
          label="Contraseña nueva"
          autoComplete="new-password"
          registration={register('password')}
          hint={PASSWORD_RULES_ES}
          error={errors.password?.message}
        />
        <button type="submit" disabled={isSubmitting || madeBy === undefined} className={primaryButtonClass}>
          {isSubmitting ? 'Guardando…' : 'Guardar contraseña'}
        </button>
      </form>
    );
  }

  return (
    <AuthCard title="Restablecer contraseña" subtitle="Elige una contraseña nueva para tu cuenta.">
      {body}
    </AuthCard>
  );
}
