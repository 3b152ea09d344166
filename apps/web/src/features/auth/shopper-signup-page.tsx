import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth-store';
import { toastStore } from '../../lib/toast-store';
import { AccountForm } from './account-form';

/**
 * `/registro` (issue 29, guest only): a shopper makes their customer account at this shop, is signed in, and
 * is mailed a link to confirm the e-mail; then back to where they were shopping.
 */
export function Component() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  return (
    <AuthCard title="Crea tu cuenta" subtitle="Pide más rápido: tus datos y direcciones quedan guardados.">
      <AccountForm
        idPrefix="shopper"
        nameLabel="Nombre"
        create={async (input) => {
          await authStore.getState().signupShopper(input);
          toastStore.getState().show({
            type: 'success',
            title: 'Tu cuenta está lista',
            message: 'Te enviamos un correo para confirmar tu dirección.',
            duration: 8000,
          });
          await navigate(safeRedirect(search.get('redirect')), { replace: true });
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

/** Back to a path of this site only (never another origin); the shop's home otherwise. */
function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : paths.home;
}
