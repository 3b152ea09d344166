import { useEffect, useRef, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import type { SessionUser } from '../../lib/auth/session-types';
import { ApiError } from '../../lib/api/http';
import { ActionLink, ErrorNotice } from './notices';

/** Why the server's callback gave up (modules/identity/google.service.ts), in Spanish. */
const FAILURES: Record<string, string> = {
  state:
    'No pudimos confirmar que este inicio de sesión con Google lo empezaste tú (el enlace fue alterado o venció). Intenta de nuevo.',
  provider: 'Google no confirmó tu inicio de sesión. Intenta de nuevo.',
  unverified:
    'Google no tiene verificado ese correo, así que no lo usamos para iniciar sesión. Si ya tienes una cuenta, inicia sesión con tu contraseña.',
  disabled: 'Esta cuenta está deshabilitada.',
};
const GENERIC = 'No pudimos iniciar sesión con Google. Intenta de nuevo.';
/** The exchange's refusals of a code used before or too late (a reload, a link opened twice). */
const CODE_REFUSED = new Set(['auth/invalid-action-code', 'auth/expired-action-code']);
const CODE_USED = 'Este inicio de sesión con Google ya se usó o venció. Intenta de nuevo.';

function messageOf(err: unknown): string {
  if (!(err instanceof ApiError)) return GENERIC;
  return CODE_REFUSED.has(err.code ?? '') ? CODE_USED : err.userMessage;
}

/**
 * `/acceso/google` (docs/design.md §3): where the server's Google callback lands. With `?code=` it exchanges the
 * single-use code for a session, calls docs/product.md §7's google-auth, then opens `afterSignIn`'s target (the
 * `?redirect=` path when the role may open it, else `userDashboard`). With `?error=` it explains.
 */
export function GoogleReturnPage({
  afterSignIn,
}: {
  afterSignIn: (user: SessionUser, redirect: string | null) => string;
}) {
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const code = search.get('code');
  const failure = search.get('error');
  const [error, setError] = useState<string | null>(failure ? (FAILURES[failure] ?? GENERIC) : code ? null : GENERIC);
  const started = useRef(false);

  useEffect(() => {
    if (!code || failure || started.current) return;
    started.current = true;
    authStore
      .getState()
      .signInWithGoogle(code)
      .then((user) => navigate(afterSignIn(user, search.get('redirect')), { replace: true }))
      .catch((err: unknown) => setError(messageOf(err)));
  }, [code, failure, navigate, afterSignIn, search]);

  return (
    <AuthCard title="Iniciar sesión con Google">
      {error ? (
        <ErrorNotice message={error}>
          <ActionLink to={paths.login}>Volver a iniciar sesión</ActionLink>
        </ErrorNotice>
      ) : (
        <p role="status" className="text-stone-700">
          Iniciando sesión…
        </p>
      )}
    </AuthCard>
  );
}
