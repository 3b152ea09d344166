import type { RouteObject } from 'react-router';
import { PageErrorBoundary } from '../../components/page-error-boundary';
import { checkoutLoader } from './checkout-api';
import { OrderSummaryPage } from './order-summary-page';
import { PaymentResponsePage } from './payment-response-page';

/** The checkout's storefront pages by route id (config/paths.ts), rendered on the server and hydrated. */
export const checkoutPages: Record<string, Partial<RouteObject>> = {
  orderSummary: { loader: checkoutLoader, Component: OrderSummaryPage, ErrorBoundary: PageErrorBoundary },
  paymentResponse: { loader: checkoutLoader, Component: PaymentResponsePage, ErrorBoundary: PageErrorBoundary },
};
