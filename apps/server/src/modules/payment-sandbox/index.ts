// The payment-sandbox module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { createPaymentSandbox, registerPaymentSandboxRoutes, sandboxFetch } from './sandbox.routes';
