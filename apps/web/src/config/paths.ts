import { AREAS } from '@hornada/domain/areas';
import { PROFILE_PATHS, storefrontPaths, withId } from './storefront-paths';

/**
 * Every URL of the web app, built in one place (style.md: no path spelled inline elsewhere): docs/product.md §2 plus
 * docs/design.md §4/§6's additions. The screens that open them are the features' route entries (features/<x>/routes.ts),
 * which take their patterns from here; app/route-table.ts composes them.
 */

export const paths = {
  ...storefrontPaths,
  dashboard: {
    root: AREAS.dashboard.root,
    showBakery: '/dashboard/show-bakery',
    updateBakery: '/dashboard/update-bakery',
    salesReport: '/dashboard/salesReport',
    ingredients: '/dashboard/ingredients',
    ingredientCreate: '/dashboard/ingredients/create',
    ingredientUpdate: withId('/dashboard/ingredients/update/:id'),
    recipes: '/dashboard/recipes',
    recipeCreate: '/dashboard/recipes/create',
    recipeUpdate: withId('/dashboard/recipes/update/:id'),
    products: '/dashboard/products',
    productCreate: '/dashboard/products/create',
    productUpdate: withId('/dashboard/products/update/:id'),
    brands: '/dashboard/brands',
    brandCreate: '/dashboard/brands/create',
    brandUpdate: withId('/dashboard/brands/update/:id'),
    users: '/dashboard/users',
    userCreate: '/dashboard/users/create',
    usersActive: '/dashboard/users/active',
    orders: '/dashboard/orders',
    orderCreate: '/dashboard/orders/create',
    productionSingle: '/dashboard/orders/production/single',
    productionGrouped: '/dashboard/orders/production/grouped',
    delivery: '/dashboard/orders/delivery',
    deliverySummary: '/dashboard/orders/delivery/summary',
    unpaid: '/dashboard/orders/unpaid',
    settings: '/dashboard/settings',
    staff: '/dashboard/staff',
    outbox: '/dashboard/outbox',
    b2bClients: '/dashboard/b2b-clients',
    standingOrders: '/dashboard/standing-orders',
    productCollections: '/dashboard/product-collections',
    productCollectionCreate: '/dashboard/product-collections/create',
    productCollectionUpdate: withId('/dashboard/product-collections/update/:id'),
    profile: PROFILE_PATHS.dashboard,
  },
  driver: {
    root: AREAS.driver.root,
    orders: '/driver/orders',
    summary: '/driver/summary',
    profile: PROFILE_PATHS.driver,
  },
  production: {
    root: AREAS.production.root,
    orders: '/production/orders',
    summary: '/production/summary',
    profile: PROFILE_PATHS.production,
  },
  customer: {
    root: AREAS.customer.root,
    profile: PROFILE_PATHS.customer,
    history: '/customer/history',
  },
} as const;
