// The web module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { registerSeoRoutes } from './seo.routes';
export { registerWebRoutes, webBuildAt } from './web.routes';
