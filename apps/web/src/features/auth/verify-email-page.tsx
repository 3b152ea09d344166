import { useCallback, useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { useStore } from 'zustand';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { madeByText, useLinkInfo, type MadeBy } from './bakery-choice';
import { ActionLink, ErrorNotice, SuccessNotice } from './notices';
import { authStore } from '../../lib/auth/auth-store';
import { ApiError } from '../../lib/api/http';
import { endpoints } from '../../lib/api/endpoints';
import { PLATFORM_NAME, useSpeakAs } from '../../lib/page-voice';
import { endSentence } from '@hornada/domain/text';

type State =
  | { status: 'checking' }
  | { status: 'choosing'; madeBy: MadeBy }
  | { status: 'verified'; email: string; left: MadeBy | null }
  | { status: 'failed'; message: string };

const secondaryButtonClass =
  'w-full rounded-lg border border-stone-300 bg-white px-4 py-2.5 font-semibold text-stone-800 hover:bg-stone-50';

/**
 * `/verificar-correo?token=…` (docs/design.md §3): confirms the e-mail with the link's single-use code. For an account a
 * bakery made for this address, the owner first says whether to stay in that bakery; leaving it also drops
 * the password the bakery chose, so the owner then picks their own. A failed link points
 * to the profile, where a signed-in user asks for a new one.
 */
export function Component() {
  const [search] = useSearchParams();
  const token = search.get('token') ?? '';
  const info = useLinkInfo(token);
  const madeBy = info === undefined ? undefined : info.madeBy;
  // An owner's link speaks as Hornada; a shopper's, as its shop's host.
  useSpeakAs(info?.platform ? PLATFORM_NAME : null);
  const user = useStore(authStore, (s) => s.user);
  const [state, setState] = useState<State>({ status: 'checking' });
  // One request per code, even when React runs effects twice in development.
  const sent = useRef<string | null>(null);

  const verify = useCallback(
    (accept: boolean | undefined, maker: MadeBy | null) => {
      if (sent.current === token) return;
      sent.current = token;
      setState({ status: 'checking' });
      endpoints
        .verifyEmail(accept === undefined ? { token } : { token, accept })
        .then((data) => {
          setState({ status: 'verified', email: data.email, left: maker && !accept ? maker : null });
          const { user, setUser } = authStore.getState();
          if (user && user.email === data.email) setUser({ ...user, emailVerified: true });
        })
        .catch((err: unknown) => {
          const message =
            err instanceof ApiError ? err.userMessage : 'No pudimos verificar tu correo. Intenta de nuevo.';
          setState({ status: 'failed', message });
        });
    },
    [token],
  );

  useEffect(() => {
    if (!token) {
      setState({ status: 'failed', message: 'Este enlace no es válido. Pide uno nuevo desde tu perfil.' });
      return;
    }
    if (madeBy === undefined) return;
    if (madeBy) setState({ status: 'choosing', madeBy });
    else verify(undefined, null);
  }, [token, madeBy, verify]);

  let body;
  if (state.status === 'checking') {
    body = (
      <p role="status" className="text-stone-700">
        Verificando tu correo…
      </p>
    );
  } else if (state.status === 'choosing') {
    body = (
      <div className="space-y-4 text-stone-800">
        <p>{madeByText(state.madeBy)}</p>
        <p>
          Si no la pediste, déjala solo para ti: sale de {state.madeBy.bakery}, que ya no verá tus datos, y eliges tu
          propia contraseña.
        </p>
        <button type="button" className={primaryButtonClass} onClick={() => verify(false, state.madeBy)}>
          La cuenta es solo mía
        </button>
        <button type="button" className={secondaryButtonClass} onClick={() => verify(true, state.madeBy)}>
          Seguir en {state.madeBy.bakery}
        </button>
      </div>
    );
  } else if (state.status === 'verified') {
    body = state.left ? (
      <SuccessNotice title="¡Listo! Tu correo quedó verificado y la cuenta es solo tuya.">
        <p className="break-all">{state.email}</p>
        <p>{endSentence(`Ya no hace parte de ${state.left.bakery}`)} Elige tu contraseña para entrar.</p>
        <ActionLink to={paths.passwordRecovery}>Elegir mi contraseña</ActionLink>
      </SuccessNotice>
    ) : (
      <SuccessNotice title="¡Listo! Tu correo quedó verificado.">
        <p className="break-all">{state.email}</p>
        {/* «Inicio» is where the role lands (an owner without a bakery: creating it), not the host's shop; an
            owner signed out here signs in first, which lands her there. */}
        <ActionLink to={user ? paths.userDashboard(user.uid) : info?.platform ? paths.login : paths.home}>
          Ir al inicio
        </ActionLink>
      </SuccessNotice>
    );
  } else {
    body = (
      <ErrorNotice message={state.message}>
        <p className="text-stone-700">Si ya iniciaste sesión, puedes pedir un enlace nuevo desde tu perfil.</p>
        <ActionLink to={paths.login}>Iniciar sesión</ActionLink>
      </ErrorNotice>
    );
  }

  return <AuthCard title="Verificar correo">{body}</AuthCard>;
}
