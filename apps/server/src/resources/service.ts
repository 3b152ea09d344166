import { and, count, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { POLICY, type Grant, type ResourcePolicy } from '@hornada/domain';
import type { AppContext, Caller } from '../context';
import type { DbOrTx, Tx } from '../db';
import type { ChangeSet } from '../db/change-log';
import { AppError, conflict, forbidden, notFound, pgErrorCode, validationError, type Detail } from '../lib/errors';
import { newId } from '../lib/ids';
import { publicView, readAccess, writeAccess, type ReadAccess } from './access';
import type { ResourceDefinition, Row, RowRule } from './definition';
import { DEFINITION_HOOK_ORDER, ResourceHooks } from './hooks';
import { listConditions, listOrder, type ListQuery } from './query';

/** A transaction several writes share (registry.transaction): they commit together or not at all. */
export interface WriteScope {
  tx: Tx;
  changes: ChangeSet;
}

/** The actor of writes the server makes on its own behalf (the demo seed, identity's internal writes). */
export const SYSTEM_CALLER: Caller = {
  uid: 'system',
  email: 'system@hornada.invalid',
  name: 'Hornada',
  role: 'system_admin',
  companyId: null,
};

/** Values at a reference path; `*` walks every array index. Returns [concrete path, value]. */
function valuesAt(data: unknown, path: string): [string, string][] {
  const out: [string, string][] = [];
  const parts = path.split('.');
  const walk = (node: unknown, i: number, at: string): void => {
    if (i === parts.length) {
      if (typeof node === 'string') out.push([at, node]);
      return;
    }
    if (node === null || typeof node !== 'object') return;
    const head = parts[i]!;
    const join = (k: string) => (at ? `${at}.${k}` : k);
    if (head === '*') {
      if (Array.isArray(node)) node.forEach((item, n) => walk(item, i + 1, join(String(n))));
      return;
    }
    walk((node as Record<string, unknown>)[head], i + 1, join(head));
  };
  walk(data, 0, '');
  return out;
}

/** Key of the window count in a list query; no column is called this. */
const TOTAL = '__hornadaTotal';

/**
 * The generic resource service: list, get, create, replace, patch, bulk patch, soft delete. The one door
 * for every write to a resource (style habit 11): routes, modules, the seed and server-side loaders call
 * it, so permissions (from the permission table), tenant, references, writable fields, the change log and
 * the caches cannot be skipped.
 */
export class ResourceService {
  private readonly policy: ResourcePolicy;
  /**
   * Rules run in each write's transaction, in order: the definition's first, then the ones modules add
   * where the app is composed (modules/compose.ts: orders' pricing and status machine, identity's
   * session ends). `beforeWrite` checks and reshapes the data; `afterWrite` runs after the row is written.
   */
  readonly hooks: ResourceHooks;

  constructor(
    private readonly ctx: AppContext,
    readonly def: ResourceDefinition,
  ) {
    this.policy = POLICY[def.name];
    this.hooks = new ResourceHooks(def.name);
    const own = { order: DEFINITION_HOOK_ORDER };
    if (def.hooks?.beforeWrite) this.hooks.beforeWrite.add(`${def.name}:definition`, def.hooks.beforeWrite, own);
    if (def.hooks?.afterWrite) this.hooks.afterWrite.add(`${def.name}:definition`, def.hooks.afterWrite, own);
    // Every row rule the table grants must be implemented by the definition: found at start-up, not by a caller.
    for (const action of ['read', 'create', 'update', 'delete'] as const) {
      for (const grant of Object.values(this.policy[action])) {
        if (grant !== 'company' && !def.rows?.[grant]) {
          throw new Error(
            `${def.name}: the permission table grants '${grant}' but the definition has no such row rule`,
          );
        }
      }
    }
  }

  private get table(): PgTable {
    return this.def.table;
  }

  private rule(grant: Grant): RowRule | undefined {
    return grant === 'company' ? undefined : this.def.rows?.[grant];
  }

  /** The rows a read reaches: the public records, or those of the caller's grant. */
  private reach(access: ReadAccess, caller: Caller | null): SQL | undefined {
    if (access === 'public') return this.def.publicRecords?.where(this.def.table);
    return caller ? this.rule(access)?.where(caller, this.def.table) : undefined;
  }

  /** What leaves the server (responses and the change log): hidden fields taken out. */
  private visible(row: Row): Row {
    if (!this.def.hidden) return row;
    const out = { ...row };
    for (const f of this.def.hidden) delete out[f];
    return out;
  }

  private async present(companyId: string, rows: Row[], access: ReadAccess = 'company'): Promise<Row[]> {
    const shown = rows.map((r) => this.visible(r));
    const presented = this.def.present ? await this.def.present(this.ctx, companyId, shown) : shown;
    // The public field set only (design §4): wholesale prices and recipes never reach a guest.
    return access === 'public' ? presented.map((r) => publicView(this.def.name, r)) : presented;
  }

  async list(caller: Caller | null, companyId: string, query: ListQuery, timeZone: string) {
    const access = readAccess(this.def.name, caller, companyId);
    const where = listConditions(
      this.def,
      query,
      companyId,
      timeZone,
      this.reach(access, caller),
      this.ctx.clock.now(),
    );
    const db = this.ctx.db;
    // One statement, so the page and `total` come from the same snapshot (a write between two
    // queries could otherwise make them disagree).
    const found = (await db
      .select({ ...getTableColumns(this.def.table), [TOTAL]: sql<number>`count(*) OVER ()`.mapWith(Number) })
      .from(this.table)
      .where(where)
      .orderBy(...listOrder(this.def, query.sort))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)) as Row[];
    let total = Number(found[0]?.[TOTAL] ?? 0);
    if (found.length === 0 && query.page > 1) {
      // A page past the end has no row to carry the count: ask for it (there is nothing to disagree with).
      const [n] = await db.select({ n: count() }).from(this.table).where(where);
      total = n?.n ?? 0;
    }
    const rows = found.map((r) => {
      const row = { ...r };
      delete row[TOTAL];
      return row;
    });
    return {
      data: await this.present(companyId, rows, access),
      total,
      page: query.page,
      perPage: query.per_page,
    };
  }

  /** One live record within `reach`; `forUpdate` locks it until the write's transaction ends. */
  private async find(db: DbOrTx, companyId: string, id: string, reach: SQL | undefined, forUpdate = false) {
    const t = this.def.table;
    const query = db
      .select()
      .from(this.table)
      .where(and(eq(t.id, id), eq(t.companyId, companyId), isNull(t.deletedAt), reach))
      .limit(1);
    // Locked before it is read: hooks and writable-field checks see the row the update changes.
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound(`${this.def.label} not found`);
    return row as Row;
  }

  async get(caller: Caller | null, companyId: string, id: string) {
    const access = readAccess(this.def.name, caller, companyId);
    const row = await this.find(this.ctx.db, companyId, id, this.reach(access, caller));
    const [out] = await this.present(companyId, [row], access);
    return out!;
  }

  /** Fields the caller's role may not write but the body changes: 403 naming them. */
  private assertWritableFields(caller: Caller, data: Record<string, unknown>, current: Row | null, prefix: string) {
    const allowed = caller.role === 'system_admin' ? undefined : this.policy.writable?.[caller.role];
    if (!allowed) return;
    const denied = Object.keys(data).filter(
      (key) =>
        !allowed.includes(key) &&
        // Sending back the value a field already has is not a change (a GET result as a PUT body).
        !(current && JSON.stringify(current[key] ?? null) === JSON.stringify(data[key] ?? null)),
    );
    if (denied.length > 0) {
      throw forbidden(
        `Your role cannot change: ${denied.join(', ')}`,
        denied.map((f) => ({ path: prefix + f, message: 'Not writable by your role' })),
      );
    }
  }

  /** A grant narrower than the company: the record written must stay within it (staff: customers only). */
  private assertWithin(grant: Grant, caller: Caller, doc: Row) {
    const rule = this.rule(grant);
    if (rule && !rule.test(caller, doc)) throw forbidden(`Your role cannot write this ${this.def.label.toLowerCase()}`);
  }

  /** Every reference must name a live record of the same company: 400 naming the field otherwise. */
  private async checkReferences(db: DbOrTx, companyId: string, data: Record<string, unknown>, prefix: string) {
    const problems: Detail[] = [];
    for (const ref of this.def.references ?? []) {
      const found = valuesAt(data, ref.path);
      if (found.length === 0) continue;
      const ids = [...new Set(found.map(([, v]) => v))];
      const t = ref.table;
      const rows = await db
        .select({ id: t.id })
        .from(t as PgTable)
        .where(and(inArray(t.id, ids), eq(t.companyId, companyId), isNull(t.deletedAt)));
      const existing = new Set(rows.map((r) => r.id as string));
      for (const [path, id] of found) {
        if (!existing.has(id))
          problems.push({ path: prefix + path, message: `No ${ref.label} with id ${id} in this company` });
      }
    }
    if (problems.length > 0) throw validationError(problems);
  }

  /** Runs `fn` in the given transaction, or in a new one through the change-log writer. */
  private async run<T>(companyId: string, scope: WriteScope | undefined, fn: (s: WriteScope) => Promise<T>) {
    if (scope) return fn(scope);
    try {
      return await this.ctx.write(companyId, (tx, changes) => fn({ tx, changes }));
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw conflict(`A ${this.def.label} with these values already exists`);
      throw err;
    }
  }

  /** The before-write hooks in order, each given what the previous one returned. */
  private async beforeWrites(
    tx: DbOrTx,
    who: Caller,
    current: Row | null,
    data: Record<string, unknown>,
    companyId: string,
  ) {
    let out = data;
    for (const hook of this.hooks.beforeWrite.list()) out = await hook(this.ctx, tx, who, current, out, companyId);
    return out;
  }

  private async afterWrites(tx: DbOrTx, who: Caller, before: Row | null, after: Row) {
    for (const hook of this.hooks.afterWrite.list()) await hook(this.ctx, tx, who, before, after);
  }

  private async insertRow(
    { tx, changes }: WriteScope,
    who: Caller,
    companyId: string,
    stored: Record<string, unknown>,
  ) {
    const now = this.ctx.clock.now();
    // An internal insert (insertAs: the seed) may bring its own id and times; create() never does.
    const values = { id: newId(), createdAt: now, updatedAt: now, ...stored, companyId, deletedAt: null };
    const [inserted] = (await tx.insert(this.table).values(values).returning()) as Row[];
    await this.afterWrites(tx, who, null, inserted!);
    changes.add(this.def.name, 'added', this.visible(inserted!));
    return inserted!;
  }

  async create(caller: Caller | null, companyId: string, data: Record<string, unknown>, scope?: WriteScope) {
    const { who, grant } = writeAccess(this.def.name, caller, companyId, 'create');
    this.assertWritableFields(who, data, null, '');
    this.assertWithin(grant, who, data);
    const row = await this.run(companyId, scope, async (s) => {
      await this.checkReferences(s.tx, companyId, data, '');
      const stored = await this.beforeWrites(s.tx, who, null, data, companyId);
      const { id: _id, createdAt: _c, updatedAt: _u, ...values } = stored;
      return this.insertRow(s, who, companyId, values);
    });
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  private async updateOne(
    { tx, changes }: WriteScope,
    who: Caller,
    grant: Grant,
    companyId: string,
    id: string,
    data: Record<string, unknown>,
    prefix = '',
  ) {
    const current = await this.find(tx, companyId, id, this.rule(grant)?.where(who, this.def.table), true);
    this.assertWritableFields(who, data, current, prefix);
    await this.checkReferences(tx, companyId, data, prefix);
    const stored = await this.beforeWrites(tx, who, current, data, companyId);
    const t = this.def.table;
    const [updated] = (await tx
      .update(this.table)
      .set({ ...stored, updatedAt: this.ctx.clock.now() })
      .where(and(eq(t.id, id), eq(t.companyId, companyId)))
      .returning()) as Row[];
    this.assertWithin(grant, who, updated!);
    await this.afterWrites(tx, who, current, updated!);
    changes.add(this.def.name, 'modified', this.visible(updated!));
    return updated!;
  }

  /**
   * PUT (`data` from the full input schema, so omitted optional fields are back to their defaults) and
   * PATCH (`data` holds only the fields sent: the others keep their values).
   */
  async update(
    caller: Caller | null,
    companyId: string,
    id: string,
    data: Record<string, unknown>,
    scope?: WriteScope,
  ) {
    const { who, grant } = writeAccess(this.def.name, caller, companyId, 'update');
    const row = await this.run(companyId, scope, (s) => this.updateOne(s, who, grant, companyId, id, data));
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  /** All or nothing: one bad entry rolls back every change (design §3). */
  async bulkUpdate(
    caller: Caller | null,
    companyId: string,
    updates: { id: string; data: Record<string, unknown> }[],
    scope?: WriteScope,
  ) {
    const { who, grant } = writeAccess(this.def.name, caller, companyId, 'update');
    const ids = updates.map((u) => u.id);
    const seen = new Set<string>();
    for (const [i, id] of ids.entries()) {
      if (seen.has(id)) throw validationError([{ path: `updates.${i}.id`, message: 'Duplicate id' }]);
      seen.add(id);
    }
    const rows = await this.run(companyId, scope, async (s) => {
      // Every row locked first, in one order (by id, bytewise) whatever the order of `updates`: two
      // bulk updates over the same records in different orders would otherwise deadlock.
      const t = this.def.table;
      await s.tx
        .select({ id: t.id })
        .from(this.table)
        .where(and(eq(t.companyId, companyId), inArray(t.id, ids)))
        .orderBy(sql`${t.id} COLLATE "C"`)
        .for('update');
      const out: Row[] = [];
      for (const [i, u] of updates.entries()) {
        try {
          out.push(await this.updateOne(s, who, grant, companyId, u.id, u.data, `updates.${i}.data.`));
        } catch (err) {
          if (err instanceof AppError && err.statusCode === 404) {
            throw new AppError(404, 'not_found', `${this.def.label} not found: updates.${i}.id`, [
              { path: `updates.${i}.id`, message: 'Not found' },
            ]);
          }
          throw err;
        }
      }
      return out;
    });
    return this.present(companyId, rows);
  }

  async remove(caller: Caller | null, companyId: string, id: string, scope?: WriteScope) {
    const { who, grant } = writeAccess(this.def.name, caller, companyId, 'delete');
    const row = await this.run(companyId, scope, async ({ tx, changes }) => {
      const current = await this.find(tx, companyId, id, this.rule(grant)?.where(who, this.def.table), true);
      await this.beforeWrites(tx, who, current, { deletedAt: true }, companyId);
      const t = this.def.table;
      const now = this.ctx.clock.now();
      const [deleted] = (await tx
        .update(this.table)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(t.id, id), eq(t.companyId, companyId)))
        .returning()) as Row[];
      await this.afterWrites(tx, who, current, deleted!);
      changes.add(this.def.name, 'removed', this.visible(deleted!));
      return deleted!;
    });
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  /**
   * For a module whose rule is its own and is checked before the call (identity: self-registration, a
   * user's own profile and password; the demo seed): stores values as given (no role check, no
   * before-write hooks), still through the change log, the caches and the after-write hooks. `companyId` null
   * is a record of no company yet (an admin before creating a bakery).
   */
  async insertAs(actor: Caller, companyId: string | null, values: Record<string, unknown>, scope?: WriteScope) {
    return this.run(companyId ?? '', scope, (s) => this.insertRow(s, actor, companyId as string, values));
  }

  /** The same for an update of one record by id, with an optional extra condition; null when none matched. */
  async updateAs(
    actor: Caller,
    id: string,
    set: Record<string, unknown>,
    opts: { where?: SQL; scope?: WriteScope; companyId?: string | null } = {},
  ): Promise<Row | null> {
    const t = this.def.table;
    const run = async ({ tx, changes }: WriteScope) => {
      const [before] = (await tx.select().from(this.table).where(eq(t.id, id)).for('update')) as Row[];
      if (!before) return null;
      const [updated] = (await tx
        .update(this.table)
        .set({ ...set, updatedAt: this.ctx.clock.now() })
        .where(and(eq(t.id, id), opts.where))
        .returning()) as Row[];
      if (!updated) return null;
      await this.afterWrites(tx, actor, before, updated);
      changes.add(this.def.name, 'modified', this.visible(updated));
      return updated;
    };
    if (opts.scope) return run(opts.scope);
    // The log row belongs to the record's company ('' for none); read it first when not given.
    let companyId = opts.companyId;
    if (companyId === undefined) {
      const [row] = (await this.ctx.db.select({ companyId: t.companyId }).from(this.table).where(eq(t.id, id))) as {
        companyId: string | null;
      }[];
      if (!row) return null;
      companyId = row.companyId;
    }
    return this.run(companyId ?? '', undefined, run);
  }

  /** A record as the service presents it to a caller with every field (after an internal write). */
  async presentOne(companyId: string, row: Row): Promise<Row> {
    const [out] = await this.present(companyId, [row]);
    return out!;
  }
}
