// The carts module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { holderOf, registerCartRoutes } from './carts.routes';
export { CartsService, type Holder, hashSession } from './carts.service';
export { readSettingsAndProducts } from './catalogue-read';
export { CartCleanup } from './cart-cleanup';
