import { useMemo } from 'react';
import { Link, useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Product, ProductCollection } from '@hornada/domain/schemas/catalogue';
import { EmptyState } from '../../components/empty-state';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { useLiveList } from '../../lib/live/use-live-list';
import { market, notFound } from './market';
import { ProductGrid } from './product-card';
import { PageHead, headImage } from './page-head';
import { endSentence } from '@hornada/domain/text';

export async function collectionLoader({ context, params }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  if (!companyId) throw notFound();
  const [collections, products] = await Promise.all([api.collections(companyId), api.products(companyId)]);
  const collection = collections.find((c) => c.id === params.collectionId);
  if (!collection) throw notFound();
  return { ...site, companyId, collection, products };
}

export function CollectionPage() {
  const data = useLoaderData<typeof collectionLoader>();
  const { marketName, companyId, publicUrl, opening } = data;
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
        description={collection.description || endSentence(`${collection.name} de ${marketName}`)}
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
          <ProductGrid products={products} opening={opening} />
        ) : (
          <EmptyState title="Esta colección no tiene productos por ahora." />
        )}
      </div>
    </div>
  );
}
