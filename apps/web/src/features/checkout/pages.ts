import type { RouteObject } from 'react-router';
import { lazyPage } from '../../components/page-error-boundary';

/**
 * The checkout's storefront pages (routes.ts gives each its route), rendered on the server and hydrated; each
 * in its own chunk with its loader, out of the first page's JavaScript.
 */
export const checkoutPages = {
  orderSummary: lazyPage(async () => {
    const [{ checkoutLoader }, { OrderSummaryPage }] = await Promise.all([
      import('./checkout-api'),
      import('./order-summary-page'),
    ]);
    return { loader: checkoutLoader, Component: OrderSummaryPage };
  }),
  paymentResponse: lazyPage(async () => {
    const [{ checkoutLoader }, { PaymentResponsePage }] = await Promise.all([
      import('./checkout-api'),
      import('./payment-response-page'),
    ]);
    return { loader: checkoutLoader, Component: PaymentResponsePage };
  }),
} satisfies Record<string, Partial<RouteObject>>;
