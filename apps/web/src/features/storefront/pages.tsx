import { Link, useLoaderData, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { Product, ProductCollection } from '@hornada/domain/schemas/catalogue';
import { EmptyState } from '../../components/empty-state';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { PageErrorBoundary, lazyPage } from '../../components/page-error-boundary';
import { useLiveList } from '../../lib/live/use-live-list';
import { ProductGrid } from './product-card';
import { market } from './market';
import { OpeningSoon } from './opening-soon';
import { PageHead, headImage } from './page-head';

const DESCRIPTION = 'Pan y tortas de la panadería de tu barrio, para recoger o a domicilio el día que elijas.';

interface Section {
  id: string;
  name: string;
  description: string | null;
  items: Product[];
}

/** Collections as sections, in their order; products without a (known) collection last. */
function sections(collections: ProductCollection[], products: Product[]): Section[] {
  const known = new Set(collections.map((c) => c.id));
  return [
    ...collections.map((c) => ({
      id: c.id,
      name: c.name,
      description: c.description ?? null,
      items: products.filter((p) => p.collectionId === c.id),
    })),
    {
      id: 'otros',
      name: 'Otros productos',
      description: null,
      items: products.filter((p) => !p.collectionId || !known.has(p.collectionId)),
    },
  ].filter((s) => s.items.length > 0);
}

async function homeLoader({ context }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  if (!companyId) return { ...site, companyId, collections: [], products: [] };
  const [collections, products] = await Promise.all([api.collections(companyId), api.products(companyId)]);
  return { ...site, companyId, collections, products };
}

function HomePage() {
  const data = useLoaderData<typeof homeLoader>();
  const { marketName, companyId, publicUrl, opening } = data;
  // What staff change in the back office shows here at once (the shared stream).
  const collections = useLiveList<ProductCollection>(companyId, 'productCollections', data.collections);
  const products = useLiveList<Product>(companyId, 'products', data.products);
  const shownSections = sections(collections, products);
  const cover = shownSections[0]?.items.find((p) => p.images.length > 0);
  let shown = 0;
  return (
    <div className="mx-auto max-w-6xl px-3 py-6 sm:px-4">
      <PageHead
        title={marketName}
        description={DESCRIPTION}
        publicUrl={publicUrl}
        path={paths.home}
        siteName={marketName}
        image={headImage(publicUrl, cover?.images[0], cover?.name ?? marketName)}
      />
      <h1 className="text-2xl font-bold text-stone-900 sm:text-3xl">{marketName}</h1>
      <p className="mt-1 text-stone-600">{DESCRIPTION}</p>
      {opening ? (
        <OpeningSoon />
      ) : shownSections.length === 0 ? (
        <div className="mt-8">
          <EmptyState title="Esta panadería aún no tiene productos publicados." />
        </div>
      ) : (
        shownSections.map((s) => {
          const offset = shown;
          shown += s.items.length;
          return (
            <section key={s.id} aria-labelledby={`col-${s.id}`} className="mt-8">
              <h2 id={`col-${s.id}`} className="text-xl font-bold text-stone-900">
                {s.id === 'otros' ? (
                  s.name
                ) : (
                  <Link to={paths.collection(s.id)} className="hover:text-amber-800 hover:underline">
                    {s.name}
                  </Link>
                )}
              </h2>
              {s.description ? <p className="mt-1 text-stone-600">{s.description}</p> : null}
              <div className="mt-3">
                <ProductGrid products={s.items} offset={offset} />
              </div>
            </section>
          );
        })
      )}
    </div>
  );
}

const page = (loader: RouteObject['loader'], Component: RouteObject['Component']): Partial<RouteObject> => ({
  loader,
  Component,
  ErrorBoundary: PageErrorBoundary,
});

/**
 * The storefront's pages, rendered on the server and hydrated (routes.ts gives each its route). The home page,
 * where a visitor lands, comes with the first load; each other page is its own chunk, loaded with its loader
 * when opened (the storefront's first-load budget).
 */
export const storefrontPages = {
  home: page(homeLoader, HomePage),
  collection: lazyPage(async () => {
    const { CollectionPage, collectionLoader } = await import('./collection-page');
    return { loader: collectionLoader, Component: CollectionPage };
  }),
  product: lazyPage(async () => {
    const { ProductPage, productLoader } = await import('./product-page');
    return { loader: productLoader, Component: ProductPage };
  }),
  privacy: lazyPage(async () => {
    const { PrivacyPage, privacyLoader } = await import('./privacy-page');
    return { loader: privacyLoader, Component: PrivacyPage };
  }),
  cart: lazyPage(async () => {
    const { CartPage, cartLoader } = await import('./cart-page');
    return { loader: cartLoader, Component: CartPage };
  }),
} satisfies Record<string, Partial<RouteObject>>;
