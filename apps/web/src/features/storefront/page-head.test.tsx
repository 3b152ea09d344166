import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { Product } from '@hornada/domain/schemas/catalogue';
import { PageHead } from './page-head';

const product = {
  id: 'p1',
  name: 'Pandebono',
  description: null,
  price: 4500,
  images: [],
  allergens: [],
  active: true,
} as unknown as Product;

describe("a product page's head (prices declared in dollars)", () => {
  const html = renderToStaticMarkup(
    <PageHead
      title="Pandebono"
      description="Pandebono"
      publicUrl="https://tienda.test"
      path="/products/show/p1"
      siteName="Panadería"
      product={{ product, available: true }}
    />,
  );

  it('tells link previews the price is in Colombian pesos', () => {
    expect(html).toContain('<meta property="product:price:currency" content="COP"/>');
    expect(html).not.toContain('USD');
  });

  it('tells search engines the same in its schema.org Offer', () => {
    const ld = /<script type="application\/ld\+json">(.*?)<\/script>/.exec(html)?.[1] ?? '{}';
    expect((JSON.parse(ld) as { offers: { priceCurrency: string } }).offers.priceCurrency).toBe('COP');
  });
});
