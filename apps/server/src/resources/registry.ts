import type { ResourceName } from '@hornada/domain';
import type { AppContext } from '../context';
import type { orders, recipes, standingOrders, users } from '../db/schema';
import type { ResourceDefinition } from './definition';
import type { ResourceHooks } from './hooks';
import { RESOURCES } from './definitions';
import { ResourceService, type WriteScope } from './service';
import { SettingsService } from './settings.service';

type CollectionName = Exclude<ResourceName, 'settings' | 'files'>;

/** The stored row of each resource that modules add hooks to (add a line when a module hooks another). */
export interface HookedRows {
  orders: typeof orders.$inferSelect;
  users: typeof users.$inferSelect;
  recipes: typeof recipes.$inferSelect;
  standingOrders: typeof standingOrders.$inferSelect;
}

/**
 * The one door (style habit 11): a service per resource, built once for the app and used by the routes,
 * the modules, the seed and server-side loaders alike. `transaction` runs several writes, each through
 * its service, in one transaction with one change-log entry per resource.
 */
export class ResourceRegistry {
  private readonly services = new Map<string, ResourceService>();
  readonly settings: SettingsService;

  constructor(
    private readonly ctx: AppContext,
    readonly definitions: readonly ResourceDefinition[] = RESOURCES,
  ) {
    for (const def of definitions) this.services.set(def.name, new ResourceService(ctx, def));
    this.settings = new SettingsService(ctx);
  }

  /** The service of a collection resource; throws for an unknown name (a programming error). */
  get(name: CollectionName): ResourceService {
    const service = this.services.get(name);
    if (!service) throw new Error(`No resource service for ${name}`);
    return service;
  }

  get users() {
    return this.get('users');
  }
  get products() {
    return this.get('products');
  }

  /** A resource's hooks, typed by its stored row: where modules add their rules (modules/compose.ts). */
  hooksOf<N extends keyof HookedRows>(name: N): ResourceHooks<HookedRows[N]> {
    // The service reads and writes this resource's table only, so its rows are the table's rows.
    return this.get(name).hooks as unknown as ResourceHooks<HookedRows[N]>;
  }

  all(): ResourceService[] {
    return [...this.services.values()];
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
