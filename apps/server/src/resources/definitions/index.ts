import type { ResourceDefinition } from '../definition';
import { b2bClientsResource } from './b2b-clients';
import { brandsResource } from './brands';
import { ingredientsResource } from './ingredients';
import { ordersResource } from './orders';
import { productCollectionsResource } from './product-collections';
import { productsResource } from './products';
import { recipesResource } from './recipes';
import { standingOrdersResource } from './standing-orders';
import { usersResource } from './users';

/** Every collection resource the engine serves; settings, one a company, is served by SettingsService. */
export const RESOURCES: readonly ResourceDefinition[] = [
  usersResource,
  productsResource,
  productCollectionsResource,
  brandsResource,
  ingredientsResource,
  recipesResource,
  b2bClientsResource,
  standingOrdersResource,
  ordersResource,
];
