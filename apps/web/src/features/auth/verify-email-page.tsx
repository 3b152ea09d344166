import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { ActionLink, ErrorNotice, SuccessNotice } from './notices';
import { authStore } from '../../lib/auth-store';
import { ApiError, http } from '../../lib/http';

type State = { status: 'checking' } | { status: 'verified'; email: string } | { status: 'failed'; message: string };

/**
 * `/verificar-correo?token=…` (design §3): confirms the e-mail with the link's single-use code. A failed
 * link points to the profile, where a signed-in user asks for a new one.
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const [state, setState] = useState<State>({ status: 'checking' });
  // One request per code, even when React runs effects twice in development.
  const sent = useRef<string | null>(null);

  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    if (!token) {
      setState({ status: 'failed', message: 'Este enlace no es válido. Pide uno nuevo desde tu perfil.' });
      return;
    }
    http
      .post<{ email: string }>('/identity/verify-email', { token })
      .then((data) => {
        setState({ status: 'verified', email: data.email });
        const { user, setUser } = authStore.getState();
        if (user && user.email === data.email) setUser({ ...user, emailVerified: true });
      })
      .catch((err: unknown) => {
        const message = err instanceof ApiError ? err.userMessage : 'No pudimos verificar tu correo. Intenta de nuevo.';
        setState({ status: 'failed', message });
      });
  }, [token]);

  return (
    <AuthCard title="Verificar correo">
      {state.status === 'checking' ? (
        <p role="status" className="text-stone-700">
          Verificando tu correo…
        </p>
      ) : state.status === 'verified' ? (
        <SuccessNotice title="¡Listo! Tu correo quedó verificado.">
          <p className="break-all">{state.email}</p>
          <ActionLink to={paths.home}>Ir al inicio</ActionLink>
        </SuccessNotice>
      ) : (
        <ErrorNotice message={state.message}>
          <p className="text-stone-700">Si ya iniciaste sesión, puedes pedir un enlace nuevo desde tu perfil.</p>
          <ActionLink to={paths.login}>Iniciar sesión</ActionLink>
        </ErrorNotice>
      )}
    </AuthCard>
  );
}
