import { Link } from 'react-router';
import { storefrontPaths as paths } from '../config/storefront-paths';

/** The Spanish 404 page (the server answers it with status 404 for unknown public URLs). */
export function NotFoundPage() {
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <title>Página no encontrada</title>
      <meta name="robots" content="noindex" />
      <p className="text-6xl font-black text-amber-900/30">404</p>
      <h1 className="mt-2 text-2xl font-bold text-stone-900">No encontramos esta página</h1>
      <p className="mt-3 text-stone-700">Puede que el enlace esté mal escrito o que la página ya no exista.</p>
      <Link
        to={paths.home}
        className="mt-6 inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white hover:bg-amber-800"
      >
        Ir a la tienda
      </Link>
    </div>
  );
}
