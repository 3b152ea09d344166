import { storefrontPaths as paths } from '../../config/storefront-paths';
import { defineRoutes } from '../../lib/route-entry';
import { storefrontPages } from './pages';

/** The storefront's screens (docs/product.md §2 "Public"; no guard), rendered on the server. */
export const storefrontRoutes = defineRoutes([
  {
    id: 'home',
    pattern: paths.home,
    area: 'storefront',
    permission: 'everyone',
    title: 'Inicio',
    page: storefrontPages.home,
  },
  {
    id: 'collection',
    pattern: paths.collection.pattern,
    area: 'storefront',
    permission: 'everyone',
    title: 'Colección',
    page: storefrontPages.collection,
  },
  {
    id: 'product',
    pattern: paths.product.pattern,
    area: 'storefront',
    permission: 'everyone',
    title: 'Producto',
    page: storefrontPages.product,
  },
  {
    id: 'cart',
    pattern: paths.cart,
    area: 'storefront',
    permission: 'everyone',
    title: 'Carrito',
    page: storefrontPages.cart,
  },
  {
    id: 'privacy',
    pattern: paths.privacy,
    area: 'storefront',
    permission: 'everyone',
    title: 'Política de privacidad',
    page: storefrontPages.privacy,
  },
]);
