// The standing-orders module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { standingOrderRules } from './standing-order-rules';
export { registerStandingOrderJobs } from './standing-orders.routes';
export { StandingOrdersJob } from './standing-orders.job';
