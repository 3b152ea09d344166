// The production module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { productRecipeHook } from './product-recipe';
export { registerProductionRoutes } from './production.routes';
export { ProductionService } from './production.service';
export { stockMoveHook } from './stock';
