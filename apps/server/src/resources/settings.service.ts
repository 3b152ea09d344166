import { eq } from 'drizzle-orm';
import { SettingsInput, type Settings } from '@hornada/domain';
import type { AppContext, Caller } from '../context';
import { settings } from '../db/schema';
import { fromZodIssues, notFound } from '../lib/errors';
import { publicView, readAccess, writeAccess } from './access';
import { asUser } from './actor';
import type { WriteScope } from './service';

function toRecord(companyId: string, data: SettingsInput, updatedAt: Date): Settings {
  return { ...data, companyId, updatedAt: updatedAt.toISOString() };
}

/**
 * Settings, one document a company (design §4), through the same door as every resource: the
 * permission table decides who reads all of it and who only the public part, and who writes; every
 * write goes through the change log (which forgets the company's cached reads and time zone).
 */
export class SettingsService {
  constructor(private readonly ctx: AppContext) {}

  /** Whether the caller reads every field (else the public part). */
  readsAll(caller: Caller | null, companyId: string): boolean {
    return readAccess('settings', caller, companyId) !== 'public';
  }

  async get(caller: Caller | null, companyId: string): Promise<Partial<Settings>> {
    const access = readAccess('settings', caller, companyId);
    const [row] = await this.ctx.db.select().from(settings).where(eq(settings.companyId, companyId)).limit(1);
    if (!row) throw notFound('Settings not found');
    const record = toRecord(companyId, row.data, row.updatedAt);
    return access === 'public' ? (publicView('settings', record) as Partial<Settings>) : record;
  }

  /** PUT (`replace`: the whole document) or PATCH (`merge`: the fields given, the result validated whole). */
  async write(caller: Caller | null, companyId: string, data: Partial<SettingsInput>, mode: 'replace' | 'merge') {
    writeAccess('settings', asUser(caller), companyId, 'update');
    return this.ctx.write(companyId, async (tx, changes) => {
      const [row] = await tx.select().from(settings).where(eq(settings.companyId, companyId)).for('update').limit(1);
      if (!row) throw notFound('Settings not found');
      // A merge is validated again as a whole, so cross-field rules hold on the result.
      let next = data as SettingsInput;
      if (mode === 'merge') {
        const merged = SettingsInput.safeParse({ ...row.data, ...data });
        if (!merged.success) throw fromZodIssues(merged.error.issues);
        next = merged.data;
      }
      const now = this.ctx.clock.now();
      await tx.update(settings).set({ data: next, updatedAt: now }).where(eq(settings.companyId, companyId));
      const record = toRecord(companyId, next, now);
      changes.add('settings', 'modified', { id: companyId, ...record });
      return record;
    });
  }

  /** A new company's first settings, in the transaction that creates the company (createBakery, the seed). */
  async createFor(scope: WriteScope, companyId: string, input: Partial<SettingsInput>): Promise<Settings> {
    const data = SettingsInput.parse(input);
    const now = this.ctx.clock.now();
    await scope.tx.insert(settings).values({ companyId, data, updatedAt: now });
    const record = toRecord(companyId, data, now);
    scope.changes.add('settings', 'added', { id: companyId, ...record });
    return record;
  }
}
