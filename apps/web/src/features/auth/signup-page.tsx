import { Link, useNavigate } from 'react-router';
import { AuthCard } from '../../components/auth-card';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { AccountForm } from './account-form';

/** `/signup` (docs/product.md §2, guest only): a bakery owner makes their account, then creates the bakery. */
export function Component() {
  const navigate = useNavigate();
  return (
    <AuthCard title="Crear cuenta" subtitle="Registra tu panadería en Hornada. Primero, tu cuenta de administrador.">
      <AccountForm
        idPrefix="signup"
        nameLabel="Tu nombre"
        create={async (input) => {
          await authStore.getState().signupAdmin(input);
          await navigate(paths.createBakery, { replace: true });
        }}
      />
      <p className="mt-6 text-center text-stone-700">
        Esta cuenta es para dueños de panaderías. ¿Vas a comprar?{' '}
        <Link to={paths.shopperSignup} className="font-semibold text-amber-900 underline underline-offset-2">
          Crea tu cuenta de cliente
        </Link>
      </p>
      <p className="mt-3 text-center text-stone-700">
        ¿Ya tienes cuenta?{' '}
        <Link to={paths.login} className="font-semibold text-amber-900 underline underline-offset-2">
          Inicia sesión
        </Link>
      </p>
    </AuthCard>
  );
}
