import { storefrontPaths as paths } from '../../config/storefront-paths';
import { defineRoutes } from '../../lib/route-entry';
import { checkoutPages } from './pages';

/** The checkout's storefront screens (public: a guest checks out), rendered on the server. */
export const checkoutRoutes = defineRoutes([
  {
    id: 'orderSummary',
    pattern: paths.orderSummary.pattern,
    area: 'storefront',
    permission: 'everyone',
    title: 'Resumen del pedido',
    page: checkoutPages.orderSummary,
  },
  {
    id: 'paymentResponse',
    pattern: paths.paymentResponse,
    area: 'storefront',
    permission: 'everyone',
    title: 'Respuesta del pago',
    page: checkoutPages.paymentResponse,
  },
]);
