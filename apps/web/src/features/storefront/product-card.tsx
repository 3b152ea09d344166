import { Link } from 'react-router';
import type { Product } from '@hornada/domain/schemas/catalogue';
import { formatMoney } from '@hornada/domain/money';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import { AddToCartButton } from './add-to-cart';

type Image = Product['images'][number];

/** The stored widths as a srcset: products/x/main.webp → /files/products/x/main-720.webp 720w. */
export function srcSet(image: Image): string | undefined {
  if (!image.widths.length) return undefined;
  return image.widths.map((w) => `/files/${image.path.replace(/\.webp$/, `-${w}.webp`)} ${w}w`).join(', ');
}

export function ProductImage({
  image,
  alt,
  sizes,
  eager,
  first,
  className,
}: {
  image: Image;
  alt: string;
  sizes: string;
  eager: boolean;
  first: boolean;
  className?: string;
}) {
  return (
    <img
      src={`/files/${image.path}`}
      srcSet={srcSet(image)}
      sizes={sizes}
      width={image.width}
      height={image.height}
      alt={image.alt || alt}
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={first ? 'high' : undefined}
      decoding="async"
      className={className}
    />
  );
}

/**
 * `eager`: above the fold on a phone (the first cards); `first`: the likely largest paint; `ordering`: the shop
 * takes orders (not while it says "Abrimos pronto").
 */
export function ProductCard({
  product,
  eager,
  first,
  ordering,
}: {
  product: Product;
  eager: boolean;
  first: boolean;
  ordering: boolean;
}) {
  const image = product.images[0];
  return (
    <li className="card group relative flex flex-col overflow-hidden rounded-xl border border-stone-200 bg-white shadow-sm transition hover:shadow-md">
      {image ? (
        <ProductImage
          image={image}
          alt={product.name}
          sizes="(min-width: 1100px) 260px, (min-width: 700px) 33vw, 50vw"
          eager={eager}
          first={first}
          className="aspect-square h-auto w-full bg-amber-100 object-cover"
        />
      ) : (
        <div className="aspect-square w-full bg-amber-100" aria-hidden="true" />
      )}
      <div className="flex flex-1 flex-col gap-1 p-3">
        <h3 className="font-semibold leading-snug text-stone-900">
          <Link to={paths.product(product.id)} className="after:absolute after:inset-0 focus-visible:underline">
            {product.name}
          </Link>
        </h3>
        {product.description ? <p className="line-clamp-2 text-sm text-stone-600">{product.description}</p> : null}
        <p className="price mt-auto pt-1 text-lg font-bold text-amber-900">{formatMoney(product.price)}</p>
        {ordering ? <AddToCartButton product={product} /> : null}
      </div>
    </li>
  );
}

/**
 * A grid of product cards; `offset` counts the cards already shown above, for the eager/lazy split; `opening`:
 * the shop says "Abrimos pronto", so no card offers to add to the cart.
 */
export function ProductGrid({
  products,
  offset = 0,
  opening = false,
}: {
  products: Product[];
  offset?: number;
  opening?: boolean;
}) {
  return (
    <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 sm:gap-4 lg:grid-cols-4">
      {products.map((p, i) => (
        <ProductCard key={p.id} product={p} eager={offset + i < 4} first={offset + i === 0} ordering={!opening} />
      ))}
    </ul>
  );
}
