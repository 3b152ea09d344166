import { eq } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE } from '@hornada/domain';
import type { Db } from '../db';
import { companies, settings } from '../db/schema';
import { notFound } from '../lib/errors';

export interface CompanyInfo {
  id: string;
  timeZone: string;
}

/**
 * Company time zones by id, kept exact by the change feed (a settings change forgets the company).
 * Like PublicCache, a generation guard keeps a read that began before a settings commit from
 * storing the old time zone after the commit's forget().
 */
export class CompanyDirectory {
  private readonly entries = new Map<string, CompanyInfo>();
  private readonly generations = new Map<string, number>();
  private static readonly MAX = 10_000;

  get(id: string): CompanyInfo | undefined {
    return this.entries.get(id);
  }

  generation(id: string): number {
    return this.generations.get(id) ?? 0;
  }

  /** Stores unless the company was forgotten since `generation` was read. */
  set(id: string, info: CompanyInfo, generation: number): void {
    if (this.generation(id) !== generation) return;
    if (this.entries.size >= CompanyDirectory.MAX) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(id, info);
  }

  forget(id: string): void {
    this.generations.set(id, this.generation(id) + 1);
    this.entries.delete(id);
  }
}

/** What getCompany reads: the app's context has both (typed apart so context.ts and this file do not import each other). */
export interface TenantReader {
  db: Db;
  companies: CompanyDirectory;
}

/** The company of a path, or 404: every /api/companies/{companyId}/… route starts here (the tenant). */
export async function getCompany(ctx: TenantReader, id: string): Promise<CompanyInfo> {
  const cached = ctx.companies.get(id);
  if (cached) return cached;
  const generation = ctx.companies.generation(id);
  const [row] = await ctx.db
    .select({ id: companies.id, data: settings.data })
    .from(companies)
    .leftJoin(settings, eq(settings.companyId, companies.id))
    .where(eq(companies.id, id))
    .limit(1);
  if (!row) throw notFound('Company not found');
  const info = { id: row.id, timeZone: row.data?.timeZone ?? DEFAULT_TIME_ZONE };
  ctx.companies.set(id, info, generation);
  return info;
}
