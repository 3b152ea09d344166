import { and, count, eq, gte, isNotNull, isNull, ne, sql } from 'drizzle-orm';
import {
  dayInZone,
  dayStartInZone,
  reachesCompany,
  SettingsInput,
  type CapacityWarning,
  type Settings,
  type WindowBooking,
} from '@hornada/domain';
import type { AppContext } from '../context';
import type { RequestContext } from '../request-context';
import type { DbOrTx } from '../db';
import { orders, settings } from '../db/schema';
import { AppError, forbidden, fromZodIssues, notFound, unauthenticated } from '../lib/errors';
import { publicView, readAccess, writeAccess, type ReadAccess } from './access';
import { asUser } from './actor';
import type { WriteScope } from './service';

/** Namespace of the advisory lock writers of custom domains take (one lock: domains are rarely written). */
const DOMAINS_LOCK = 727278;

const domainTaken = (domain: string) =>
  new AppError(409, 'shops/domain-taken', `The domain ${domain} is taken by another shop or the deployment`);

/** Each window's busiest upcoming day, against the windows' capacities: the ones booked past theirs. */
export function capacityWarnings(data: SettingsInput, bookings: readonly WindowBooking[]): CapacityWarning[] {
  const out: CapacityWarning[] = [];
  data.deliveryWindows.forEach((w, i) => {
    const busiest = bookings.find((b) => b.windowId === w.id);
    if (w.capacity === null || !busiest || busiest.booked <= w.capacity) return;
    out.push({
      ...busiest,
      path: `deliveryWindows.${i}.capacity`,
      capacity: w.capacity,
      message: `Window "${w.label}" already has ${busiest.booked} orders on ${busiest.date}: they are kept, and it takes no more until it has room`,
    });
  });
  return out;
}

function toRecord(companyId: string, data: SettingsInput, updatedAt: Date): Settings {
  return { ...data, companyId, updatedAt: updatedAt.toISOString() };
}

/**
 * Settings, one document a company (docs/design.md §4), through the same door as every resource: the
 * permission table decides who reads all of it and who only the public part, and who writes; every
 * write goes through the change log (which forgets the company's cached reads and time zone).
 */
export class SettingsService {
  constructor(private readonly ctx: AppContext) {}

  /** Whether the caller reads every field (else the public part). */
  readsAll(rc: RequestContext): boolean {
    return readAccess('settings', rc.caller, rc.company()) !== 'public';
  }

  get(rc: RequestContext): Promise<Partial<Settings>> {
    const companyId = rc.company();
    return this.read(companyId, readAccess('settings', rc.caller, companyId));
  }

  /** The public part of a bakery's settings, as a guest reads it: what its shop and its mail show. */
  publicOf(companyId: string): Promise<Partial<Settings>> {
    return this.read(companyId, 'public');
  }

  private async read(companyId: string, access: ReadAccess): Promise<Partial<Settings>> {
    const [row] = await this.ctx.db.select().from(settings).where(eq(settings.companyId, companyId)).limit(1);
    if (!row) throw notFound('Settings not found');
    const record = toRecord(companyId, row.data, row.updatedAt);
    return access === 'public' ? (publicView('settings', record) as Partial<Settings>) : record;
  }

  /**
   * Each window's busiest upcoming day (from today in the company's time zone): what a capacity may not go
   * under without a warning. Read by whoever reads all the settings (the back office).
   */
  async windowBookings(rc: RequestContext): Promise<WindowBooking[]> {
    const { caller } = rc;
    const companyId = rc.company();
    if (!this.readsAll(rc)) {
      if (!caller) throw unauthenticated();
      if (!reachesCompany(caller, companyId)) throw notFound();
      throw forbidden('Your role cannot read the bookings of the delivery windows');
    }
    const [row] = await this.ctx.db.select().from(settings).where(eq(settings.companyId, companyId)).limit(1);
    if (!row) throw notFound('Settings not found');
    return this.bookings(this.ctx.db, companyId, row.data.timeZone, rc.now);
  }

  private async bookings(db: DbOrTx, companyId: string, timeZone: string, now: Date): Promise<WindowBooking[]> {
    const today = dayInZone(now, timeZone);
    const rows = await db
      .select({ dueDate: orders.dueDate, window: orders.window, n: count() })
      .from(orders)
      .where(
        and(
          eq(orders.companyId, companyId),
          gte(orders.dueDate, dayStartInZone(today, timeZone)),
          isNotNull(orders.window),
          ne(orders.status, 'cancelled'),
          isNull(orders.deletedAt),
        ),
      )
      .groupBy(orders.dueDate, orders.window);
    const busiest = new Map<string, WindowBooking>();
    for (const r of rows) {
      const date = dayInZone(r.dueDate, timeZone);
      const known = busiest.get(r.window!);
      if (!known || r.n > known.booked || (r.n === known.booked && date < known.date))
        busiest.set(r.window!, { windowId: r.window!, date, booked: r.n });
    }
    return [...busiest.values()].sort((a, b) => a.windowId.localeCompare(b.windowId));
  }

  /** PUT (`replace`: the whole document) or PATCH (`merge`: the fields given, the result validated whole). */
  async write(rc: RequestContext, data: Partial<SettingsInput>, mode: 'replace' | 'merge') {
    const companyId = rc.company();
    writeAccess('settings', asUser(rc.caller), companyId, 'update');
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
      await this.assertDomainsFree(tx, companyId, next.domains ?? []);
      const now = this.ctx.clock.now();
      await tx.update(settings).set({ data: next, updatedAt: now }).where(eq(settings.companyId, companyId));
      const record = toRecord(companyId, next, now);
      changes.add('settings', 'modified', { id: companyId, ...record });
      // Booked orders are never touched by a settings change: a capacity under them is only reported.
      const warnings = capacityWarnings(next, await this.bookings(tx, companyId, next.timeZone, rc.now));
      return { record, warnings };
    });
  }

  /**
   * A custom domain names one shop (docs/design.md §4): not the deployment's own host or a shop's `{slug}.` under
   * it, and no other bakery's. Writers of domains take turns on one lock, so two cannot claim one together.
   */
  private async assertDomainsFree(tx: DbOrTx, companyId: string, domains: readonly string[]): Promise<void> {
    if (domains.length === 0) return;
    const publicHost = new URL(this.ctx.config.publicUrl).hostname.toLowerCase();
    const own = domains.find((d) => d === publicHost || d.endsWith(`.${publicHost}`));
    if (own) throw domainTaken(own);
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${DOMAINS_LOCK})`);
    const [taken] = await tx
      .select({ domains: sql<string[]>`${settings.data}->'domains'` })
      .from(settings)
      .where(
        and(ne(settings.companyId, companyId), sql`${settings.data}->'domains' ?| ${sql.param([...domains])}::text[]`),
      )
      .limit(1);
    const clash = taken ? domains.find((d) => taken.domains.includes(d)) : undefined;
    if (clash) throw domainTaken(clash);
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
