import { eq } from 'drizzle-orm';
import { DEFAULT_TIME_ZONE, SETTINGS_PRIVATE_FIELDS, SettingsInput, type Settings } from '@hornada/domain';
import type { AppContext, Caller } from '../../context';
import { companies, settings } from '../../db/schema';
import { forbidden, fromZodIssues, notFound, unauthenticated } from '../../lib/errors';

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

/** The company of a path, or 404: every /api/companies/{companyId}/… route starts here. */
export async function getCompany(ctx: AppContext, id: string): Promise<CompanyInfo> {
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

const FULL_READ = ['company_admin', 'company_staff', 'production_assistant'] as const;

export function settingsFullRead(caller: Caller | null, companyId: string): boolean {
  if (!caller) return false;
  if (caller.role === 'system_admin') return true;
  return caller.companyId === companyId && (FULL_READ as readonly string[]).includes(caller.role);
}

function toRecord(companyId: string, data: SettingsInput, updatedAt: Date): Settings {
  return { ...data, companyId, updatedAt: updatedAt.toISOString() };
}

/** Settings, one document a company (design §4): everyone reads the public part, the admin writes. */
export async function readSettings(ctx: AppContext, caller: Caller | null, companyId: string) {
  const [row] = await ctx.db.select().from(settings).where(eq(settings.companyId, companyId)).limit(1);
  if (!row) throw notFound('Settings not found');
  const full = settingsFullRead(caller, companyId);
  const record: Partial<Settings> = toRecord(companyId, row.data, row.updatedAt);
  if (!full) for (const f of SETTINGS_PRIVATE_FIELDS) delete record[f];
  return record;
}

export async function writeSettings(
  ctx: AppContext,
  caller: Caller | null,
  companyId: string,
  data: Partial<SettingsInput>,
  mode: 'replace' | 'merge',
) {
  if (!caller) throw unauthenticated();
  if (caller.role !== 'system_admin' && caller.companyId !== companyId) throw notFound('Settings not found');
  if (caller.role !== 'system_admin' && caller.role !== 'company_admin') {
    throw forbidden('Only the company admin can change settings');
  }
  return ctx.write(companyId, async (tx, changes) => {
    const [row] = await tx.select().from(settings).where(eq(settings.companyId, companyId)).for('update').limit(1);
    if (!row) throw notFound('Settings not found');
    // A merge is validated again as a whole, so cross-field rules hold on the result.
    let next = data as SettingsInput;
    if (mode === 'merge') {
      const merged = SettingsInput.safeParse({ ...row.data, ...data });
      if (!merged.success) throw fromZodIssues(merged.error.issues);
      next = merged.data;
    }
    const now = ctx.clock.now();
    await tx.update(settings).set({ data: next, updatedAt: now }).where(eq(settings.companyId, companyId));
    const record = toRecord(companyId, next, now);
    changes.add('settings', 'modified', { id: companyId, ...record });
    return record;
  });
}
