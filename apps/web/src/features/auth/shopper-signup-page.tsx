import { Link } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import type { SessionUser } from '../../lib/auth/session-types';
import { toastStore } from '../../lib/toast-store';
import { AccountForm } from './account-form';

/**
 * `/registro` (guest only): a shopper makes their customer account at this shop, is signed in, and
 * is mailed a link to confirm the e-mail; then `afterSignUp` (app/sign-in-screens.tsx: back to where they were
 * shopping, under /login's redirect rule).
 */
export function ShopperSignupPage({ afterSignUp }: { afterSignUp: (user: SessionUser) => void }) {
  return (
    <AuthCard title="Crea tu cuenta" subtitle="Pide más rápido: tus datos y direcciones quedan guardados.">
      <AccountForm
        idPrefix="shopper"
        nameLabel="Nombre"
        create={async (input) => {
          const user = await authStore.getState().signupShopper(input);
          toastStore.getState().show({
            type: 'success',
            title: 'Tu cuenta está lista',
            message: 'Te enviamos un correo para confirmar tu dirección.',
            duration: 8000,
          });
          afterSignUp(user);
        }}
      />
      <p className="mt-6 text-center text-stone-700">
        ¿Ya tienes cuenta?{' '}
        <Link to={paths.login} className="font-semibold text-amber-900 underline underline-offset-2">
          Inicia sesión
        </Link>
      </p>
    </AuthCard>
  );
}
