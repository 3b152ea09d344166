// The orders module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { OrderMailService, orderMailHook } from './order-mail';
export { type OrderPayments, type PaymentLink } from './order-payments';
export { type Actor, type NewOrder, type OrderRow, OrderRules, cancelledNotPayable } from './order-rules';
export { logged, type Logged, type Step } from './rules/order-update';
export { registerOrderRoutes } from './orders.routes';
export { OrdersService } from './orders.service';
