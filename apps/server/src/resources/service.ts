import { and, count, eq, getTableColumns, inArray, isNull, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { AppContext, Caller } from '../context';
import type { DbOrTx } from '../db';
import type { ChangeSet } from '../live/change-log';
import { AppError, conflict, notFound, pgErrorCode, validationError, type Detail } from '../lib/errors';
import { newId } from '../lib/ids';
import { assertCanWrite, assertWritableFields, readScope } from './access';
import type { ResourceDefinition, Row } from './definition';
import { listConditions, listOrder, type ListQuery } from './query';

/** Values at a reference path; `*` walks every array index. Returns [concrete path, value]. */
function valuesAt(data: unknown, path: string): [string, string][] {
  const walk = (node: unknown, parts: string[], at: string[]): [string, string][] => {
    if (parts.length === 0) return typeof node === 'string' ? [[at.join('.'), node]] : [];
    if (node === null || typeof node !== 'object') return [];
    const [head, ...rest] = parts;
    if (head === '*') {
      return Array.isArray(node) ? node.flatMap((item, i) => walk(item, rest, [...at, String(i)])) : [];
    }
    return walk((node as Record<string, unknown>)[head!], rest, [...at, head!]);
  };
  return walk(data, path.split('.'), []);
}

/** Key of the window count in a list query; no column is called this. */
const TOTAL = '__hornadaTotal';

/**
 * The generic resource service: list, get, create, replace, patch, bulk patch, soft delete.
 * Permissions, tenant, references and writable fields are all checked here (the server is the
 * authority); route handlers only parse and call.
 */
export class ResourceService {
  constructor(
    private readonly ctx: AppContext,
    readonly def: ResourceDefinition,
  ) {}

  private get table(): PgTable {
    return this.def.table;
  }

  private visibility(scope: 'all' | 'public', caller: Caller | null) {
    if (scope === 'public') return this.def.read.public?.where(this.def.table);
    return caller && caller.role !== 'system_admin' ? this.def.read.restrict?.where(caller, this.def.table) : undefined;
  }

  /** What leaves the server (responses and the change log): hidden fields taken out. */
  private visible(row: Row): Row {
    if (!this.def.hidden) return row;
    const out = { ...row };
    for (const f of this.def.hidden) delete out[f];
    return out;
  }

  private async present(companyId: string, rows: Row[]): Promise<Row[]> {
    const shown = rows.map((r) => this.visible(r));
    return this.def.present ? this.def.present(this.ctx, companyId, shown) : shown;
  }

  async list(caller: Caller | null, companyId: string, query: ListQuery, timeZone: string) {
    const scope = readScope(this.def, caller, companyId);
    const where = listConditions(this.def, query, companyId, timeZone, this.visibility(scope, caller));
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
      data: await this.present(companyId, rows),
      total,
      page: query.page,
      perPage: query.per_page,
    };
  }

  /** One live record the caller may see; `forUpdate` locks it until the write's transaction ends. */
  private async find(
    db: DbOrTx,
    companyId: string,
    id: string,
    scope: 'all' | 'public',
    caller: Caller | null,
    forUpdate = false,
  ): Promise<Row> {
    const t = this.def.table;
    const query = db
      .select()
      .from(this.table)
      .where(and(eq(t.id, id), eq(t.companyId, companyId), isNull(t.deletedAt), this.visibility(scope, caller)))
      .limit(1);
    // Locked before it is read: hooks and writable-field checks see the row the update changes.
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound(`${this.def.label} not found`);
    return row as Row;
  }

  async get(caller: Caller | null, companyId: string, id: string) {
    const scope = readScope(this.def, caller, companyId);
    const row = await this.find(this.ctx.db, companyId, id, scope, caller);
    const [out] = await this.present(companyId, [row]);
    return out!;
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

  private async write<T>(companyId: string, fn: (tx: DbOrTx, changes: ChangeSet) => Promise<T>): Promise<T> {
    try {
      return await this.ctx.write(companyId, fn);
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw conflict(`A ${this.def.label} with these values already exists`);
      throw err;
    }
  }

  async create(caller: Caller | null, companyId: string, data: Record<string, unknown>) {
    const who = assertCanWrite(this.def, caller, companyId);
    assertWritableFields(this.def, who, data, null);
    const row = await this.write(companyId, async (tx, changes) => {
      await this.checkReferences(tx, companyId, data, '');
      const stored = this.def.hooks?.beforeWrite
        ? await this.def.hooks.beforeWrite(this.ctx, tx, who, null, data)
        : data;
      const now = this.ctx.clock.now();
      const values = { ...stored, id: newId(), companyId, createdAt: now, updatedAt: now, deletedAt: null };
      const [inserted] = (await tx.insert(this.table).values(values).returning()) as Row[];
      await this.def.hooks?.afterWrite?.(this.ctx, tx, who, null, inserted!);
      changes.add(this.def.name, 'added', this.visible(inserted!));
      return inserted!;
    });
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  private async updateOne(
    tx: DbOrTx,
    changes: ChangeSet,
    who: Caller,
    companyId: string,
    id: string,
    data: Record<string, unknown>,
    prefix = '',
  ) {
    const current = await this.find(tx, companyId, id, 'all', who, true);
    assertWritableFields(this.def, who, data, current, prefix);
    await this.checkReferences(tx, companyId, data, prefix);
    const stored = this.def.hooks?.beforeWrite
      ? await this.def.hooks.beforeWrite(this.ctx, tx, who, current, data)
      : data;
    const t = this.def.table;
    const [updated] = (await tx
      .update(this.table)
      .set({ ...stored, updatedAt: this.ctx.clock.now() })
      .where(and(eq(t.id, id), eq(t.companyId, companyId)))
      .returning()) as Row[];
    await this.def.hooks?.afterWrite?.(this.ctx, tx, who, current, updated!);
    changes.add(this.def.name, 'modified', this.visible(updated!));
    return updated!;
  }

  /** PUT: data comes from the full input schema, so omitted optional fields are back to defaults. */
  async update(caller: Caller | null, companyId: string, id: string, data: Record<string, unknown>) {
    const who = assertCanWrite(this.def, caller, companyId);
    const row = await this.write(companyId, (tx, changes) => this.updateOne(tx, changes, who, companyId, id, data));
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  patch(caller: Caller | null, companyId: string, id: string, data: Record<string, unknown>) {
    return this.update(caller, companyId, id, data);
  }

  /** All or nothing: one bad entry rolls back every change (design §3). */
  async bulkUpdate(caller: Caller | null, companyId: string, updates: { id: string; data: Record<string, unknown> }[]) {
    const who = assertCanWrite(this.def, caller, companyId);
    const ids = updates.map((u) => u.id);
    const duplicate = ids.find((id, i) => ids.indexOf(id) !== i);
    if (duplicate)
      throw validationError([{ path: `updates.${ids.lastIndexOf(duplicate)}.id`, message: 'Duplicate id' }]);
    const rows = await this.write(companyId, async (tx, changes) => {
      // Every row locked first, in one order (by id, bytewise) whatever the order of `updates`: two
      // bulk updates over the same records in different orders would otherwise deadlock.
      const t = this.def.table;
      await tx
        .select({ id: t.id })
        .from(this.table)
        .where(and(eq(t.companyId, companyId), inArray(t.id, ids)))
        .orderBy(sql`${t.id} COLLATE "C"`)
        .for('update');
      const out: Row[] = [];
      for (const [i, u] of updates.entries()) {
        try {
          out.push(await this.updateOne(tx, changes, who, companyId, u.id, u.data, `updates.${i}.data.`));
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

  async remove(caller: Caller | null, companyId: string, id: string) {
    const who = assertCanWrite(this.def, caller, companyId);
    const row = await this.write(companyId, async (tx, changes) => {
      const current = await this.find(tx, companyId, id, 'all', who, true);
      if (this.def.hooks?.beforeWrite)
        await this.def.hooks.beforeWrite(this.ctx, tx, who, current, { deletedAt: true });
      const t = this.def.table;
      const now = this.ctx.clock.now();
      const [deleted] = (await tx
        .update(this.table)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(t.id, id), eq(t.companyId, companyId)))
        .returning()) as Row[];
      await this.def.hooks?.afterWrite?.(this.ctx, tx, who, current, deleted!);
      changes.add(this.def.name, 'removed', this.visible(deleted!));
      return deleted!;
    });
    const [out] = await this.present(companyId, [row]);
    return out!;
  }
}
