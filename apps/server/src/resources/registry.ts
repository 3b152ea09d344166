import type { ResourceName } from '@hornada/domain';
import type { AppContext } from '../context';
import type { ResourceDefinition } from './definition';
import { RESOURCES } from './definitions';
import { ResourceService, type WriteScope } from './service';
import { SettingsService } from './settings.service';

type CollectionName = Exclude<ResourceName, 'settings' | 'files'>;

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
