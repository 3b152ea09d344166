import type { Product } from '@hornada/domain/schemas/catalogue';

type Image = Product['images'][number];

/**
 * The currency the bakery sells in, as search engines and link previews must be told: Colombian
 * pesos. The page itself writes prices in the spec's "$4,500" style (formatMoney), which reads the same.
 */
export const PRICE_CURRENCY = 'COP';

export interface HeadImage {
  /** Absolute URL (on PUBLIC_URL): crawlers and link previews ignore relative ones. */
  url: string;
  width: number;
  height: number;
  alt: string;
}

/** A product's first picture as a link preview: the stored original, whose size is known. */
export function headImage(publicUrl: string, image: Image | undefined, fallbackAlt: string): HeadImage | undefined {
  if (!image) return undefined;
  return {
    url: `${publicUrl}/files/${image.path}`,
    width: image.width,
    height: image.height,
    alt: image.alt || fallbackAlt,
  };
}

export interface ProductHead {
  product: Product;
  /** False once the product was taken off while its page was open. */
  available: boolean;
}

/** JSON inside a `<script>` data block: `<` escaped so no text in it can close the element. */
const jsonForDataBlock = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/**
 * A storefront page's `<head>` entries (title, description, canonical URL, Open Graph, Twitter card; a
 * product's price tags and schema.org Product), rendered where the page is: React 19 hoists the title,
 * meta and link elements into `<head>` on the server and in the browser alike. The JSON-LD stays in the
 * body: a `type="application/ld+json"` block is data, not script (CSP `script-src 'self'` leaves it
 * alone, React renders it on both sides without a warning), and search engines read it anywhere.
 */
export function PageHead({
  title,
  description,
  publicUrl,
  path,
  siteName,
  image,
  product,
  noindex,
}: {
  title: string;
  description: string;
  publicUrl: string;
  /** The page's own path (config/paths.ts): the canonical URL and og:url. */
  path: string;
  siteName: string;
  image?: HeadImage;
  product?: ProductHead;
  noindex?: boolean;
}) {
  const url = `${publicUrl}${path}`;
  return (
    <>
      <title>{title}</title>
      <meta name="description" content={description} />
      {noindex ? <meta name="robots" content="noindex" /> : null}
      <link rel="canonical" href={url} />
      <meta property="og:type" content={product ? 'product' : 'website'} />
      <meta property="og:site_name" content={siteName} />
      <meta property="og:locale" content="es_CO" />
      <meta property="og:title" content={title} />
      <meta property="og:description" content={description} />
      <meta property="og:url" content={url} />
      {image ? (
        <>
          <meta property="og:image" content={image.url} />
          <meta property="og:image:width" content={String(image.width)} />
          <meta property="og:image:height" content={String(image.height)} />
          <meta property="og:image:alt" content={image.alt} />
        </>
      ) : null}
      <meta name="twitter:card" content={image ? 'summary_large_image' : 'summary'} />
      {product ? (
        <>
          <meta property="product:price:amount" content={String(product.product.price)} />
          <meta property="product:price:currency" content={PRICE_CURRENCY} />
          <meta property="product:availability" content={product.available ? 'in stock' : 'out of stock'} />
          <script
            type="application/ld+json"
            dangerouslySetInnerHTML={{ __html: jsonForDataBlock(productJsonLd(product, url, image, siteName)) }}
          />
        </>
      ) : null}
    </>
  );
}

/** schema.org Product with one Offer (what Google's product snippets read). */
export function productJsonLd(
  { product, available }: ProductHead,
  url: string,
  image: HeadImage | undefined,
  seller: string,
) {
  return {
    '@context': 'https://schema.org',
    '@type': 'Product',
    name: product.name,
    ...(product.description ? { description: product.description } : {}),
    ...(image ? { image: [image.url] } : {}),
    sku: product.id,
    offers: {
      '@type': 'Offer',
      url,
      price: product.price,
      priceCurrency: PRICE_CURRENCY,
      availability: available ? 'https://schema.org/InStock' : 'https://schema.org/OutOfStock',
      seller: { '@type': 'Organization', name: seller },
    },
  };
}
