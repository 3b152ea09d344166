// The shops module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { requireOpenShop } from './shop-open';
export { registerShopRoutes } from './shops.routes';
export { assignSlug } from './slugs';
export { createStorefrontReader } from './storefront-reader';
