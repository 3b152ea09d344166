import type { ResourceName } from '@hornada/domain';
import type { AppContext } from '../context';
import type { Clock } from '../lib/clock';
import type {
  b2bClients,
  brands,
  ingredients,
  orders,
  productCollections,
  products,
  recipes,
  standingOrders,
  users,
} from '../db/schema';
import type { ResourceDefinition } from './definition';
import type { ResourceHooks } from './hooks';
import { RESOURCES } from './definitions';
import { ResourceService, type ServedResource, type WriteScope } from './service';
import { SettingsService } from './settings.service';

export type CollectionName = Exclude<ResourceName, 'settings' | 'files'>;

/** The service of one collection resource, typed by its stored row. */
export type ServiceOf<N extends CollectionName> = ResourceService<StoredRows[N]>;

/** The stored row of each collection resource: what its service's reads and writes answer, and its hooks get. */
export type StoredRows = {
  orders: typeof orders.$inferSelect;
  users: typeof users.$inferSelect;
  recipes: typeof recipes.$inferSelect;
  standingOrders: typeof standingOrders.$inferSelect;
  products: typeof products.$inferSelect;
  productCollections: typeof productCollections.$inferSelect;
  brands: typeof brands.$inferSelect;
  ingredients: typeof ingredients.$inferSelect;
  b2bClients: typeof b2bClients.$inferSelect;
};

/**
 * The one door (style habit 11): a service per resource, built once for the app and used by the routes,
 * the modules, the seed and server-side loaders alike. `transaction` runs several writes, each through
 * its service, in one transaction with one change-log entry per resource.
 */
export class ResourceRegistry {
  private readonly services: { [N in CollectionName]: ResourceService<StoredRows[N]> };
  readonly settings: SettingsService;

  constructor(
    private readonly ctx: AppContext,
    readonly definitions: readonly ResourceDefinition[] = RESOURCES,
    /** A registry whose hooks these services share (onClock). */
    from?: ResourceRegistry,
  ) {
    const byName = new Map(definitions.map((def) => [def.name as string, def]));
    // Each collection's service, typed by its table's row; a collection without a definition is a programming error.
    const serve = <N extends CollectionName>(name: N): ResourceService<StoredRows[N]> => {
      const def = byName.get(name);
      if (!def) throw new Error(`No resource definition for ${name}`);
      return new ResourceService<StoredRows[N]>(ctx, def, from?.get(name).hooks);
    };
    this.services = {
      orders: serve('orders'),
      users: serve('users'),
      recipes: serve('recipes'),
      standingOrders: serve('standingOrders'),
      products: serve('products'),
      productCollections: serve('productCollections'),
      brands: serve('brands'),
      ingredients: serve('ingredients'),
      b2bClients: serve('b2bClients'),
    };
    this.settings = new SettingsService(ctx);
  }

  /** The service of a collection resource, typed by its stored row. */
  get<N extends CollectionName>(name: N): ResourceService<StoredRows[N]> {
    return this.services[name];
  }

  get users() {
    return this.get('users');
  }
  get products() {
    return this.get('products');
  }

  /** A resource's hooks, typed by its stored row: where modules add their rules (modules/compose.ts). */
  hooksOf<N extends CollectionName>(name: N): ResourceHooks<StoredRows[N]> {
    return this.get(name).hooks;
  }

  /** Every collection's service, as the engine serves them all (their routes). */
  all(): ServedResource[] {
    return Object.values(this.services);
  }

  /**
   * These services, with their hooks, on another clock: the demo seed replays each order's moves at their
   * own instants. Its writes run in a scope of this registry's `transaction`.
   */
  onClock(clock: Clock): ResourceRegistry {
    return new ResourceRegistry({ ...this.ctx, clock }, this.definitions, this);
  }

  transaction<T>(companyId: string | (() => string), fn: (scope: WriteScope) => Promise<T>): Promise<T> {
    return this.ctx.write(companyId, (tx, changes) => fn({ tx, changes }));
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The resource services (the one door for writes). */
    resources: ResourceRegistry;
  }
}
