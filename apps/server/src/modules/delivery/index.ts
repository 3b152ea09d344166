// The delivery module's face: what the rest of the server imports from it (eslint.config.js forbids reaching past it).
export { AddressPlacing } from './address-placing';
export { registerDeliveryRoutes } from './delivery.routes';
export { DeliveryService } from './delivery.service';
