import { createHash } from 'node:crypto';

export interface CachedResponse {
  /** Encoded once: a string body would be turned into UTF-8 bytes again on every send. */
  body: Buffer;
  etag: string;
}

interface Entry extends CachedResponse {
  group: string;
  bytes: number;
}

/** Default memory bound of the public cache. */
export const PUBLIC_CACHE_MAX_BYTES = 64 * 1024 * 1024;
/** Rough cost of an entry beyond its strings (map slots, object headers). */
const ENTRY_OVERHEAD = 160;

/**
 * Public reads (products, collections, brands, public settings) served from memory and kept exact by
 * the change feed: a committed change to (company, resource) drops every entry of that pair, on this
 * instance at commit and on the others when the notification arrives; a settings change drops the
 * whole company (lists filter dates in its time zone). A second instance of this class holds the
 * signed-in lists (ctx.signedInCache), each key naming whose view it is (serve-public.ts).
 *
 * Bounded by bytes, least recently used out first, so clients varying `search` cannot grow memory
 * without bound. Sizes count string lengths, which is the byte size of the one-byte strings V8 keeps
 * for JSON without characters above U+00FF (Spanish text included): an estimate, not an accounting.
 *
 * Generations: a read records generation() before it queries and set() refuses to store if the pair
 * was invalidated meanwhile, so a read that began before a change never stores its stale answer.
 * Every invalidation takes a new stamp from one counter; a pair's generation is the latest stamp
 * that covered it (its own, its company's, or a clear()).
 */
export class PublicCache {
  /** Insertion order is recency order: a hit moves its entry to the end. */
  private readonly entries = new Map<string, Entry>();
  /** Answers being computed, by key, with the generation they began at (answer()). */
  private readonly pending = new Map<string, { generation: number; answer: Promise<CachedResponse> }>();
  private readonly groups = new Map<string, Set<string>>();
  private readonly groupStamps = new Map<string, number>();
  private readonly companyStamps = new Map<string, number>();
  private clearStamp = 0;
  private stamp = 0;
  private totalBytes = 0;

  constructor(private readonly maxBytes = PUBLIC_CACHE_MAX_BYTES) {}

  private static group(companyId: string, resource: string): string {
    return `${companyId}\u0000${resource}`;
  }

  static etagOf(body: string): string {
    return `"${createHash('sha1').update(body).digest('base64url')}"`;
  }

  generation(companyId: string, resource: string): number {
    return Math.max(
      this.clearStamp,
      this.companyStamps.get(companyId) ?? 0,
      this.groupStamps.get(PublicCache.group(companyId, resource)) ?? 0,
    );
  }

  get(companyId: string, resource: string, key: string): CachedResponse | undefined {
    const full = `${PublicCache.group(companyId, resource)}\u0000${key}`;
    const entry = this.entries.get(full);
    if (!entry) return undefined;
    this.entries.delete(full);
    this.entries.set(full, entry);
    return entry;
  }

  /**
   * The cached answer, or the one `produce` computes, stored unless the pair changed meanwhile. Reads of
   * one key that miss together share one computation (a write drops an entry that every connection then
   * asks for at once), unless a change came between them: a read never takes an answer begun before a
   * change it must see.
   */
  answer(companyId: string, resource: string, key: string, produce: () => Promise<string>): Promise<CachedResponse> {
    const hit = this.get(companyId, resource, key);
    if (hit) return Promise.resolve(hit);
    const generation = this.generation(companyId, resource);
    const full = `${PublicCache.group(companyId, resource)}\u0000${key}`;
    const shared = this.pending.get(full);
    if (shared && shared.generation === generation) return shared.answer;
    const answer = produce().then((body) => this.set(companyId, resource, key, body, generation));
    const mine = { generation, answer };
    this.pending.set(full, mine);
    const clear = () => {
      if (this.pending.get(full) === mine) this.pending.delete(full);
    };
    answer.then(clear, clear);
    return answer;
  }

  /** Stores unless the pair changed since `generation` was read, evicting the least recently used. */
  set(companyId: string, resource: string, key: string, body: string, generation: number): CachedResponse {
    const value = { body: Buffer.from(body, 'utf8'), etag: PublicCache.etagOf(body) };
    if (this.generation(companyId, resource) !== generation) return value;
    const group = PublicCache.group(companyId, resource);
    const full = `${group}\u0000${key}`;
    const bytes = body.length + full.length + value.etag.length + ENTRY_OVERHEAD;
    // One answer larger than a quarter of the budget would only churn the rest out.
    if (bytes > this.maxBytes / 4) return value;
    this.remove(full);
    while (this.totalBytes + bytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
    this.entries.set(full, { ...value, group, bytes });
    let keys = this.groups.get(group);
    if (!keys) this.groups.set(group, (keys = new Set()));
    keys.add(full);
    this.totalBytes += bytes;
    return value;
  }

  private remove(full: string): void {
    const entry = this.entries.get(full);
    if (!entry) return;
    this.entries.delete(full);
    this.totalBytes -= entry.bytes;
    const keys = this.groups.get(entry.group);
    keys?.delete(full);
    if (keys?.size === 0) this.groups.delete(entry.group);
  }

  private dropGroup(group: string): void {
    const keys = this.groups.get(group);
    if (!keys) return;
    for (const full of [...keys]) this.remove(full);
  }

  invalidate(companyId: string, resource: string): void {
    const group = PublicCache.group(companyId, resource);
    this.groupStamps.set(group, ++this.stamp);
    this.dropGroup(group);
  }

  /** Everything of one company: what its settings (time zone) shape may be in any of its answers. */
  invalidateCompany(companyId: string): void {
    this.companyStamps.set(companyId, ++this.stamp);
    const prefix = `${companyId}\u0000`;
    for (const group of [...this.groups.keys()]) if (group.startsWith(prefix)) this.dropGroup(group);
  }

  clear(): void {
    this.clearStamp = ++this.stamp;
    this.entries.clear();
    this.groups.clear();
    this.totalBytes = 0;
  }

  /** Estimated bytes held (see the class comment). */
  get bytes(): number {
    return this.totalBytes;
  }

  get size(): number {
    return this.entries.size;
  }
}
