import { useMemo } from 'react';
import { Link, data, useLoaderData, type LoaderFunctionArgs, type RouteObject } from 'react-router';
import type { Product, ProductCollection } from '@hornada/domain/schemas/catalogue';
import { formatMoney } from '@hornada/domain/format';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { storefrontApi, type PublicSettings } from '../../lib/storefront-api';
import { PageErrorBoundary, lazyPage } from '../../components/page-error-boundary';
import { useLiveList } from '../../lib/use-live-list';
import { AddToCartForm } from './add-to-cart';
import { ProductGrid, ProductImage } from './product-card';
import { PageHead, headImage } from './page-head';

const DESCRIPTION = 'Pan y tortas de la panadería de tu barrio, para recoger o a domicilio el día que elijas.';

const notFound = () => data(null, { status: 404 });

async function market(context: unknown) {
  const api = storefrontApi(context);
  const config = await api.config();
  return {
    api,
    config,
    companyId: config.companyId,
    site: { marketName: config.marketName, publicUrl: config.publicUrl },
  };
}

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
  const { marketName, companyId, publicUrl } = data;
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
      {shownSections.length === 0 ? (
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

async function collectionLoader({ context, params }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  if (!companyId) throw notFound();
  const [collections, products] = await Promise.all([api.collections(companyId), api.products(companyId)]);
  const collection = collections.find((c) => c.id === params.collectionId);
  if (!collection) throw notFound();
  return { ...site, companyId, collection, products };
}

function CollectionPage() {
  const data = useLoaderData<typeof collectionLoader>();
  const { marketName, companyId, publicUrl } = data;
  const initial = useMemo(() => [data.collection], [data.collection]);
  const [collection = data.collection] = useLiveList<ProductCollection>(
    companyId,
    'productCollections',
    initial,
  ).filter((c) => c.id === data.collection.id);
  const products = useLiveList<Product>(companyId, 'products', data.products).filter(
    (p) => p.collectionId === collection.id,
  );
  const cover = products.find((p) => p.images.length > 0);
  return (
    <div className="mx-auto max-w-6xl px-3 py-6 sm:px-4">
      <PageHead
        title={`${collection.name} · ${marketName}`}
        description={collection.description || `${collection.name} de ${marketName}.`}
        publicUrl={publicUrl}
        path={paths.collection(collection.id)}
        siteName={marketName}
        image={headImage(publicUrl, cover?.images[0], cover?.name ?? collection.name)}
      />
      <nav aria-label="Ruta" className="text-sm text-stone-600">
        <Link to={paths.home} className="hover:underline">
          Inicio
        </Link>{' '}
        / <span aria-current="page">{collection.name}</span>
      </nav>
      <h1 className="mt-2 text-2xl font-bold sm:text-3xl">{collection.name}</h1>
      {collection.description ? <p className="mt-1 text-stone-600">{collection.description}</p> : null}
      <div className="mt-6">
        {products.length ? (
          <ProductGrid products={products} />
        ) : (
          <EmptyState title="Esta colección no tiene productos por ahora." />
        )}
      </div>
    </div>
  );
}

async function productLoader({ context, params }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  if (!companyId || !params.id) throw notFound();
  const [product, products] = await Promise.all([api.product(companyId, params.id), api.products(companyId)]);
  if (!product || product.active === false) throw notFound();
  // Related: others of its collection first, then the rest of the shop, four at most.
  const related = [
    ...products.filter((p) => p.id !== product.id && p.collectionId && p.collectionId === product.collectionId),
    ...products.filter((p) => p.id !== product.id && (!p.collectionId || p.collectionId !== product.collectionId)),
  ].slice(0, RELATED_COUNT);
  return { ...site, companyId, product, related };
}

const RELATED_COUNT = 4;

function ProductPage() {
  const data = useLoaderData<typeof productLoader>();
  const { marketName, companyId, publicUrl } = data;
  const initial = useMemo(() => [data.product], [data.product]);
  const live = useLiveList<Product>(companyId, 'products', initial).find((p) => p.id === data.product.id);
  const product = live ?? data.product;
  const related = useLiveList<Product>(companyId, 'products', data.related).filter((p) =>
    data.related.some((r) => r.id === p.id),
  );
  const [image, ...moreImages] = product.images;
  return (
    <div className="mx-auto max-w-5xl px-3 py-6 sm:px-4">
      <PageHead
        title={`${product.name} · ${marketName}`}
        description={productDescription(product, marketName)}
        publicUrl={publicUrl}
        path={paths.product(product.id)}
        siteName={marketName}
        image={headImage(publicUrl, image, product.name)}
        product={{ product, available: Boolean(live) }}
      />
      <div className="grid gap-6 md:grid-cols-2">
        {image ? (
          <ProductImage
            image={image}
            alt={product.name}
            sizes="(min-width: 768px) 480px, calc(100vw - 1.5rem)"
            eager
            first
            className="aspect-square h-auto w-full rounded-xl bg-amber-100 object-cover"
          />
        ) : (
          <div className="aspect-square w-full rounded-xl bg-amber-100" aria-hidden="true" />
        )}
        <div>
          <h1 className="text-2xl font-bold sm:text-3xl">{product.name}</h1>
          {live ? (
            <p className="price mt-2 text-2xl font-bold text-amber-900">{formatMoney(product.price)}</p>
          ) : (
            <p role="status" className="mt-3 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
              Este producto ya no está disponible.
            </p>
          )}
          {live ? <AddToCartForm product={product} /> : null}
          {product.description ? (
            <p className="mt-4 whitespace-pre-line text-stone-700">{product.description}</p>
          ) : null}
          {product.allergens.length ? (
            <p className="mt-4 text-sm text-stone-700">
              <span className="font-semibold">Contiene:</span> {product.allergens.join(', ')}
            </p>
          ) : null}
          {moreImages.length ? (
            <ul className="mt-5 grid grid-cols-3 gap-2" aria-label="Más fotos">
              {moreImages.map((img) => (
                <li key={img.path}>
                  <ProductImage
                    image={img}
                    alt={product.name}
                    sizes="160px"
                    eager={false}
                    first={false}
                    className="aspect-square h-auto w-full rounded-lg bg-amber-100 object-cover"
                  />
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      </div>
      {related.length ? (
        <section aria-labelledby="related" className="mt-10">
          <h2 id="related" className="text-xl font-bold">
            También te puede gustar
          </h2>
          <div className="mt-3">
            <ProductGrid products={related} offset={4} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

/** The price first (a shared link's preview shows it under the name), then the product's own words. */
function productDescription(product: Product, marketName: string): string {
  const text = (product.description || `${product.name} de ${marketName}.`).replace(/\s+/g, ' ').trim();
  const line = `${formatMoney(product.price)} · ${text}`;
  return line.length > 160 ? `${line.slice(0, 159).trimEnd()}…` : line;
}

async function privacyLoader({ context }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  const settings: Partial<PublicSettings> = companyId ? await api.settings(companyId) : {};
  return { ...site, policy: settings.privacyPolicy ?? '' };
}

function PrivacyPage() {
  const { marketName, publicUrl, policy } = useLoaderData<typeof privacyLoader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHead
        title={`Política de privacidad · ${marketName}`}
        description={`Cómo ${marketName} trata tus datos personales.`}
        publicUrl={publicUrl}
        path={paths.privacy}
        siteName={marketName}
      />
      <h1 className="text-2xl font-bold sm:text-3xl">Política de privacidad</h1>
      {policy ? (
        <div className="mt-4 whitespace-pre-line leading-relaxed text-stone-800">{policy}</div>
      ) : (
        <div className="mt-6">
          <EmptyState title="Esta panadería aún no ha publicado su política de privacidad." />
        </div>
      )}
    </div>
  );
}

const page = (loader: RouteObject['loader'], Component: RouteObject['Component']): Partial<RouteObject> => ({
  loader,
  Component,
  ErrorBoundary: PageErrorBoundary,
});

/** The storefront's pages, rendered on the server and hydrated (routes.ts gives each its route). */
export const storefrontPages = {
  home: page(homeLoader, HomePage),
  collection: page(collectionLoader, CollectionPage),
  product: page(productLoader, ProductPage),
  privacy: page(privacyLoader, PrivacyPage),
  // Its own chunk: a visitor's first page does not carry it (issue 14's first-load budget).
  cart: lazyPage(async () => {
    const { CartPage, cartLoader } = await import('./cart-page');
    return { loader: cartLoader, Component: CartPage };
  }),
} satisfies Record<string, Partial<RouteObject>>;
