import { password } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import { z } from 'zod';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, PasswordField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { BakeryChoice, useLinkInfo } from './bakery-choice';
import { ActionLink, ErrorNotice, SuccessNotice } from './notices';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError, http } from '../../lib/api/http';
import { PLATFORM_NAME, useSpeakAs } from '../../lib/page-voice';

const ResetSchema = z.object({ password: password() });

/** Codes after which this link cannot be used again: the page offers a new one instead of the form. */
const LINK_CODES = new Set(['auth/invalid-action-code', 'auth/expired-action-code']);

/**
 * `/restablecer-contrasena?token=…` (docs/design.md §3): a new password; every session of the account ends. For an
 * account a bakery made for this address, the owner also says whether to stay in that bakery (bakery-choice).
 * An invitation's link opens it too, but the page then reads as an invitation and speaks as the bakery that
 * invited: «Crea tu contraseña», then «Ya puedes entrar».
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const info = useLinkInfo(token);
  const madeBy = info === undefined ? undefined : info.madeBy;
  const invitedBy = info?.invitation?.bakery ?? null;
  // An owner's link speaks as Hornada, an invitation as the bakery that invited; a shopper's, as its shop's host.
  useSpeakAs(invitedBy ?? (info?.platform ? PLATFORM_NAME : null));
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
    body = invitedBy ? (
      <SuccessNotice title="Ya puedes entrar">
        <p>Tu contraseña quedó guardada. Inicia sesión con tu correo y tu contraseña.</p>
        <ActionLink to={paths.login}>Iniciar sesión</ActionLink>
      </SuccessNotice>
    ) : (
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
  } else if (info === undefined) {
    body = (
      <p role="status" className="text-stone-700">
        Abriendo tu enlace…
      </p>
    );
  } else {
    body = (
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormAlert>{formError}</FormAlert>
        {madeBy ? <BakeryChoice madeBy={madeBy} accept={accept} onChange={setAccept} /> : null}
        <PasswordField
          id="reset-password"
          label={invitedBy ? 'Tu contraseña' : 'Contraseña nueva'}
          autoComplete="new-password"
          registration={register('password')}
          hint={PASSWORD_RULES_ES}
          error={errors.password?.message}
        />
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? 'Guardando…' : invitedBy ? 'Crear mi contraseña' : 'Guardar contraseña'}
        </button>
      </form>
    );
  }

  if (info === undefined && !linkError) return <AuthCard title="Tu contraseña">{body}</AuthCard>;
  return invitedBy ? (
    <AuthCard
      title="Crea tu contraseña"
      subtitle={done ? undefined : `${invitedBy} te invitó. Elige la contraseña con la que vas a entrar.`}
    >
      {body}
    </AuthCard>
  ) : (
    <AuthCard title="Restablecer contraseña" subtitle="Elige una contraseña nueva para tu cuenta.">
      {body}
    </AuthCard>
  );
}
