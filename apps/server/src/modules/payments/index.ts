// The payments module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { registerPaymentRoutes } from './payments.routes';
export { PaymentsService } from './payments.service';
export { PaymentReconciliation } from './reconciliation';
