import { useMemo } from 'react';
import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import type { Product } from '@hornada/domain/schemas/catalogue';
import { formatMoney } from '@hornada/domain/format';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { useLiveList } from '../../lib/live/use-live-list';
import { AddToCartForm } from './add-to-cart-form';
import { market, notFound } from './market';
import { ProductGrid, ProductImage } from './product-card';
import { PageHead, headImage } from './page-head';
import { endSentence } from '@hornada/domain/text';

export async function productLoader({ context, params }: LoaderFunctionArgs) {
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

export function ProductPage() {
  const data = useLoaderData<typeof productLoader>();
  const { marketName, companyId, publicUrl, opening } = data;
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
          {live && opening ? <NoOrdersYet /> : live ? <AddToCartForm product={product} /> : null}
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
            <ProductGrid products={related} offset={4} opening={opening} />
          </div>
        </section>
      ) : null}
    </div>
  );
}

/** In place of "Agregar al carrito" while the shop says "Abrimos pronto": it takes no orders yet. */
function NoOrdersYet() {
  return (
    <p role="status" className="mt-5 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-amber-950">
      <strong className="font-semibold">Abrimos pronto.</strong> Todavía no recibimos pedidos en línea.
    </p>
  );
}

/** The price first (a shared link's preview shows it under the name), then the product's own words. */
function productDescription(product: Product, marketName: string): string {
  const text = (product.description || endSentence(`${product.name} de ${marketName}`)).replace(/\s+/g, ' ').trim();
  const line = `${formatMoney(product.price)} · ${text}`;
  return line.length > 160 ? `${line.slice(0, 159).trimEnd()}…` : line;
}
