import { Eye, EyeOff } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useRouteLoaderData, useSearchParams } from 'react-router';
import { AuthCard, inputClass, primaryButtonClass } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import type { SessionUser } from '../../lib/auth/session-types';
import { ApiError } from '../../lib/api/http';
import type { PublicConfig } from '../../lib/api/storefront-api';

const FALLBACK_ERROR = 'No pudimos iniciar sesión. Intenta de nuevo.';

/** `/login` (docs/product.md §2, guest only): e-mail and password; on success `afterSignIn` decides where to go. */
export function LoginPage({ afterSignIn }: { afterSignIn: (user: SessionUser) => void }) {
  const config = useRouteLoaderData<{ config: PublicConfig }>('root')?.config;
  const [search] = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [showPassword, setShowPassword] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sending, setSending] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSending(true);
    setError(null);
    try {
      afterSignIn(await authStore.getState().login(email.trim(), password));
    } catch (err) {
      setError(err instanceof ApiError ? err.userMessage : FALLBACK_ERROR);
      setSending(false);
    }
  }

  return (
    <AuthCard title="Iniciar sesión" subtitle="Entra para ver tus pedidos o administrar tu panadería.">
      <form onSubmit={submit} noValidate={false} className="space-y-4">
        {search.get('sesion') === 'terminada' && !error ? (
          <p role="status" className="rounded-lg border border-amber-200 bg-amber-50 px-3 py-2 text-amber-950">
            Tu sesión se cerró porque tu cuenta fue desactivada o tu acceso cambió. Si crees que es un error, habla con
            quien administra tu panadería.
          </p>
        ) : null}
        {error ? (
          <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
            {error}
          </p>
        ) : null}
        <div>
          <label htmlFor="login-email" className="font-medium text-stone-800">
            Correo electrónico
          </label>
          <input
            id="login-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            required
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            className={inputClass}
          />
        </div>
        <div>
          <div className="flex items-baseline justify-between gap-3">
            <label htmlFor="login-password" className="font-medium text-stone-800">
              Contraseña
            </label>
            <Link
              to={paths.passwordRecovery}
              className="text-sm font-medium text-amber-900 underline-offset-2 hover:underline"
            >
              ¿Olvidaste tu contraseña?
            </Link>
          </div>
          <div className="relative">
            <input
              id="login-password"
              type={showPassword ? 'text' : 'password'}
              autoComplete="current-password"
              required
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              className={`${inputClass} pr-12`}
            />
            <button
              type="button"
              onClick={() => setShowPassword((v) => !v)}
              aria-pressed={showPassword}
              aria-label={showPassword ? 'Ocultar contraseña' : 'Mostrar contraseña'}
              className="absolute inset-y-0 right-0 mt-1 flex w-12 items-center justify-center rounded-r-lg text-stone-600 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-amber-700"
            >
              {showPassword ? (
                <EyeOff className="size-5" aria-hidden="true" />
              ) : (
                <Eye className="size-5" aria-hidden="true" />
              )}
            </button>
          </div>
        </div>
        <button type="submit" disabled={sending} className={primaryButtonClass}>
          {sending ? 'Iniciando sesión…' : 'Iniciar sesión'}
        </button>
      </form>
      {config?.googleSignIn ? (
        <a
          href={paths.googleStart(search.get('redirect') ?? undefined)}
          className="mt-3 inline-flex w-full items-center justify-center rounded-lg border border-stone-300 bg-white px-4 py-3 font-semibold text-stone-800 hover:bg-stone-50"
        >
          Continuar con Google
        </a>
      ) : null}
      <p className="mt-6 text-center text-stone-700">
        ¿Es tu primera compra?{' '}
        <Link to={paths.shopperSignup} className="font-semibold text-amber-900 underline underline-offset-2">
          Crea tu cuenta para pedir más rápido
        </Link>
      </p>
      <p className="mt-3 text-center text-stone-700">
        ¿Tienes una panadería y aún no usas Hornada?{' '}
        <Link to={paths.signup} className="font-semibold text-amber-900 underline underline-offset-2">
          Crea tu cuenta
        </Link>
      </p>
    </AuthCard>
  );
}
