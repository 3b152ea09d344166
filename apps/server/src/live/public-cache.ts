import { createHash } from 'node:crypto';

export interface CachedResponse {
  body: string;
  etag: string;
}

/**
 * Public reads (products, collections, brands, public settings) served from memory and kept exact by
 * the change feed: a committed change to (company, resource) drops every entry of that pair, on this
 * instance at commit and on the others when the notification arrives. A generation counter per pair
 * stops a read that began before a change from storing its now-stale answer after it.
 */
export class PublicCache {
  private readonly entries = new Map<string, Map<string, CachedResponse>>();
  private readonly generations = new Map<string, number>();
  private size = 0;

  constructor(private readonly maxEntries = 20_000) {}

  private static group(companyId: string, resource: string): string {
    return `${companyId}\u0000${resource}`;
  }

  static etagOf(body: string): string {
    return `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  generation(companyId: string, resource: string): number {
    return this.generations.get(PublicCache.group(companyId, resource)) ?? 0;
  }

  get(companyId: string, resource: string, key: string): CachedResponse | undefined {
    return this.entries.get(PublicCache.group(companyId, resource))?.get(key);
  }

  /** Stores unless the pair changed since `generation` was read. */
  set(companyId: string, resource: string, key: string, body: string, generation: number): CachedResponse {
    const value = { body, etag: PublicCache.etagOf(body) };
    const group = PublicCache.group(companyId, resource);
    if (this.generation(companyId, resource) !== generation) return value;
    if (this.size >= this.maxEntries) this.clear();
    let map = this.entries.get(group);
    if (!map) this.entries.set(group, (map = new Map()));
    if (!map.has(key)) this.size++;
    map.set(key, value);
    return value;
  }

  invalidate(companyId: string, resource: string): void {
    const group = PublicCache.group(companyId, resource);
    this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
    const map = this.entries.get(group);
    if (map) {
      this.size -= map.size;
      this.entries.delete(group);
    }
  }

  clear(): void {
    for (const group of this.entries.keys()) {
      this.generations.set(group, (this.generations.get(group) ?? 0) + 1);
    }
    this.entries.clear();
    this.size = 0;
  }
}
