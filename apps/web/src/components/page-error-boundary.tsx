import { isRouteErrorResponse, useRouteError, type RouteObject } from 'react-router';
import { NotFoundPage } from './not-found';

/** A storefront page's loader failed: a 404 is the Spanish not-found page, anything else a Spanish error. */
export function PageErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center" role="alert">
      <title>Algo salió mal</title>
      <h1 className="text-2xl font-bold">No pudimos cargar esta página</h1>
      <p className="mt-3 text-stone-700">Algo salió mal de nuestro lado. Intenta de nuevo en un momento.</p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="mt-6 rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white hover:bg-amber-800"
      >
        Reintentar
      </button>
    </div>
  );
}

/**
 * A storefront page in its own chunk, loaded with its loader when first opened (on the server as in the
 * browser), with the storefront's error boundary: pages that are not where a visitor lands (the cart, the
 * checkout) stay out of the first page's JavaScript (the storefront's first-load budget).
 */
export const lazyPage = (load: () => Promise<Pick<RouteObject, 'loader' | 'Component'>>): Partial<RouteObject> => ({
  lazy: load,
  ErrorBoundary: PageErrorBoundary,
});
