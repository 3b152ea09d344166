import { and, count, eq, getTableColumns, inArray, isNull, sql, type SQL } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { IMPORT_REASONS, POLICY, titleCaseName, type Grant, type ResourcePolicy } from '@hornada/domain';
import type { AppContext, Caller } from '../context';
import type { RequestContext } from '../request-context';
import type { DbOrTx } from '../db';
import { AppError, conflict, forbidden, notFound, pgErrorCode, validationError, type Detail } from '../lib/errors';
import { newId } from '../lib/ids';
import { publicView, readAccess, writeAccess, type ReadAccess, type WriteAuth } from './access';
import type { Actor } from './actor';
import type { ResourceDefinition, Row, RowRule, WriteScope } from './definition';

export type { WriteScope } from './definition';
import { DEFINITION_HOOK_ORDER, ResourceHooks } from './hooks';
import { listConditions, listOrder, type ListQuery } from './query';

/** Options of an update: a condition the record must meet too (else 404), as a precondition. */
export interface UpdateOptions {
  where?: SQL;
}

/** The company condition of a record: its company, or none (an account before its bakery). */
const inCompany = (t: ResourceDefinition['table'], companyId: string | null) =>
  companyId === null ? isNull(t.companyId) : eq(t.companyId, companyId);

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
/**
 * `R` is the resource's stored row (registry.ts's StoredRows): what its reads and writes answer and what its
 * hooks receive, typed for the modules. The engine serves every table the same way; a row read from the
 * table is taken as `R` where drizzle hands it over for a table it only knows at run time.
 */
export class ResourceService<R extends Row = Row> {
  private readonly policy: ResourcePolicy;
  /**
   * Rules run in each write's transaction, in order: the definition's first, then the ones modules add
   * where the app is composed (modules/compose.ts: orders' pricing and status machine, identity's
   * session ends). `beforeWrite` checks and reshapes the data; `afterWrite` runs after the row is written.
   */
  readonly hooks: ResourceHooks<R>;

  constructor(
    private readonly ctx: AppContext,
    readonly def: ResourceDefinition,
    /** Another service's hooks, shared (the same resource on another clock: ResourceRegistry.onClock). */
    hooks?: ResourceHooks<R>,
  ) {
    this.policy = POLICY[def.name];
    this.hooks = hooks ?? new ResourceHooks<R>(def.name);
    const own = { order: DEFINITION_HOOK_ORDER };
    if (!hooks) {
      if (def.hooks?.beforeWrite) this.hooks.beforeWrite.add(`${def.name}:definition`, def.hooks.beforeWrite, own);
      if (def.hooks?.beforeDelete) this.hooks.beforeDelete.add(`${def.name}:definition`, def.hooks.beforeDelete, own);
      if (def.hooks?.afterWrite) this.hooks.afterWrite.add(`${def.name}:definition`, def.hooks.afterWrite, own);
    }
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
  private visible(row: R): R {
    if (!this.def.hidden) return row;
    const out = { ...row };
    for (const f of this.def.hidden) delete out[f];
    return out;
  }

  private async present(companyId: string, rows: R[], access: ReadAccess = 'company'): Promise<R[]> {
    const shown = rows.map((r) => this.visible(r));
    // A definition's `present` adds what it computes (a recipe's costs) to the rows it is given.
    const presented = this.def.present ? ((await this.def.present(this.ctx, companyId, shown)) as R[]) : shown;
    // The public field set only (docs/design.md §4): wholesale prices and recipes never reach a guest.
    return access === 'public' ? presented.map((r) => publicView(this.def.name, r) as R) : presented;
  }

  async list(rc: RequestContext, query: ListQuery, timeZone: string) {
    const { caller } = rc;
    const companyId = rc.company();
    const access = readAccess(this.def.name, caller, companyId);
    const where = listConditions(this.def, query, companyId, timeZone, this.reach(access, caller), rc.now);
    const db = this.ctx.db;
    // One statement, so the page and `total` come from the same snapshot (a write between two
    // queries could otherwise make them disagree).
    const found = (await db
      .select({ ...getTableColumns(this.def.table), [TOTAL]: sql<number>`count(*) OVER ()`.mapWith(Number) })
      .from(this.table)
      .where(where)
      .orderBy(...listOrder(this.def, query.sort))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page)) as (R & { [TOTAL]?: number })[];
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
  private async find(db: DbOrTx, companyId: string | null, id: string, reach: SQL | undefined, forUpdate = false) {
    const t = this.def.table;
    const query = db
      .select()
      .from(this.table)
      .where(and(eq(t.id, id), inCompany(t, companyId), isNull(t.deletedAt), reach))
      .limit(1);
    // Locked before it is read: hooks and writable-field checks see the row the update changes.
    const [row] = forUpdate ? await query.for('update') : await query;
    if (!row) throw notFound(`${this.def.label} not found`);
    return row as R;
  }

  async get(rc: RequestContext, id: string) {
    const { caller } = rc;
    const companyId = rc.company();
    const access = readAccess(this.def.name, caller, companyId);
    const row = await this.find(this.ctx.db, companyId, id, this.reach(access, caller));
    const [out] = await this.present(companyId, [row], access);
    return out!;
  }

  /** Fields the actor may not write (its role's, or its line's) but the body changes: 403 naming them. */
  private assertWritableFields(auth: WriteAuth, data: Record<string, unknown>, current: Row | null, prefix: string) {
    const allowed = auth.fields;
    if (allowed === 'all') return;
    const denied = Object.keys(data).filter(
      (key) =>
        !allowed.includes(key) &&
        // Sending back the value a field already has is not a change (a GET result as a PUT body).
        !(current && JSON.stringify(current[key] ?? null) === JSON.stringify(data[key] ?? null)),
    );
    if (denied.length > 0) {
      throw forbidden(
        `Your role cannot change: ${denied.join(', ')}`,
        denied.map((f) => ({ path: prefix + f, message: `Not writable by ${auth.user ? 'your role' : 'this actor'}` })),
      );
    }
  }

  /** A grant narrower than the company: the record written must stay within it (staff: customers only). */
  private assertWithin(auth: WriteAuth, doc: Row) {
    const rule = auth.user ? this.rule(auth.grant) : undefined;
    if (rule && auth.user && !rule.test(auth.user, doc)) {
      throw forbidden(`Your role cannot write this ${this.def.label.toLowerCase()}`);
    }
  }

  /** The rows a write reaches: its grant's row rule, or its one record. */
  private writeReach(auth: WriteAuth): SQL | undefined {
    const t = this.def.table;
    if (auth.onlyId !== undefined) return eq(t.id, auth.onlyId);
    return auth.user ? this.rule(auth.grant)?.where(auth.user, t) : undefined;
  }

  /**
   * Every reference must name a live record of the same company: 400 naming the field otherwise. One
   * round trip for all of them (a UNION ALL), however many fields refer.
   */
  private async checkReferences(db: DbOrTx, companyId: string, data: Record<string, unknown>, prefix: string) {
    const wanted = (this.def.references ?? [])
      .map((ref) => ({ ref, found: valuesAt(data, ref.path) }))
      .filter((w) => w.found.length > 0);
    if (wanted.length === 0) return;
    const parts = wanted.map(({ ref, found }, n) => {
      const t = ref.table;
      const ids = [...new Set(found.map(([, v]) => v))];
      return sql`SELECT ${n}::int AS n, ${t.id} AS id FROM ${t} WHERE ${and(inArray(t.id, ids), eq(t.companyId, companyId), isNull(t.deletedAt))}`;
    });
    const { rows } = await db.execute<{ n: number; id: string }>(sql.join(parts, sql` UNION ALL `));
    const existing = wanted.map(() => new Set<string>());
    for (const r of rows) existing[Number(r.n)]!.add(r.id);
    const problems: Detail[] = [];
    wanted.forEach(({ ref, found }, n) => {
      for (const [path, id] of found) {
        if (!existing[n]!.has(id))
          problems.push({ path: prefix + path, message: `No ${ref.label} with id ${id} in this company` });
      }
    });
    if (problems.length > 0) throw validationError(problems);
  }

  /** Runs `fn` in the given transaction, or in a new one through the change-log writer. */
  private async run<T>(companyId: string | null, scope: WriteScope | undefined, fn: (s: WriteScope) => Promise<T>) {
    if (scope) return fn(scope);
    try {
      // A record of no company is logged under '' (the change log's "none").
      return await this.ctx.write(companyId ?? '', (tx, changes) => fn({ tx, changes }));
    } catch (err) {
      if (pgErrorCode(err) === '23505') throw conflict(`A ${this.def.label} with these values already exists`);
      throw err;
    }
  }

  /** The before-write hooks in order, each given what the previous one returned. */
  private async beforeWrites(
    tx: DbOrTx,
    who: Actor,
    current: R | null,
    data: Record<string, unknown>,
    companyId: string,
  ) {
    let out = withPersonNames(data, this.def.personNames ?? []);
    for (const hook of this.hooks.beforeWrite.list()) out = await hook(this.ctx, tx, who, current, out, companyId);
    return out;
  }

  private async afterWrites(scope: WriteScope, who: Actor, before: R | null, after: R) {
    for (const hook of this.hooks.afterWrite.list()) await hook(this.ctx, scope.tx, who, before, after, scope);
  }

  private async insertRow(scope: WriteScope, who: Actor, companyId: string | null, stored: Record<string, unknown>) {
    const { tx, changes } = scope;
    const now = this.ctx.clock.now();
    // Only an import (the seed, IMPORT_REASONS) brings its own id and times; create() drops them otherwise.
    const values = { id: newId(), createdAt: now, updatedAt: now, ...stored, companyId, deletedAt: null };
    const [inserted] = (await tx.insert(this.table).values(values).returning()) as R[];
    await this.afterWrites(scope, who, null, inserted!);
    changes.add(this.def.name, 'added', this.visible(inserted!));
    return inserted!;
  }

  /**
   * Creates a record as `actor` (style habit 13: a user, the system with a reason, a gateway, a guest),
   * within what the permission table gives it. `companyId` null: a record of no company (an account
   * before its bakery), which only an actor's line reaches.
   */
  async create(actor: Actor | null, companyId: string | null, data: Record<string, unknown>, scope?: WriteScope) {
    const imports = actor?.kind === 'system' && IMPORT_REASONS.includes(actor.reason);
    const body = imports ? withoutKeys(data, ['id', 'createdAt', 'updatedAt']) : data;
    const auth = writeAccess(this.def.name, actor, companyId, 'create');
    this.assertWritableFields(auth, body, null, '');
    this.assertWithin(auth, body);
    const row = await this.run(companyId, scope, async (s) => {
      await this.checkReferences(s.tx, companyId ?? '', body, '');
      const stored = await this.beforeWrites(s.tx, auth.actor, null, body, companyId ?? '');
      const { id: _id, createdAt: _c, updatedAt: _u, ...values } = stored;
      const kept = imports ? { id: data.id, createdAt: data.createdAt, updatedAt: data.updatedAt } : {};
      return this.insertRow(s, auth.actor, companyId, { ...values, ...withoutUndefined(kept) });
    });
    const [out] = await this.present(companyId ?? '', [row]);
    return out!;
  }

  private async updateOne(
    scope: WriteScope,
    auth: WriteAuth,
    companyId: string | null,
    id: string,
    data: Record<string, unknown>,
    prefix = '',
    opts: UpdateOptions = {},
  ) {
    const { tx, changes } = scope;
    const reach = and(this.writeReach(auth), opts.where);
    const current = await this.find(tx, companyId, id, reach, true);
    this.assertWritableFields(auth, data, current, prefix);
    await this.checkReferences(tx, companyId ?? '', data, prefix);
    const stored = await this.beforeWrites(tx, auth.actor, current, data, companyId ?? '');
    const t = this.def.table;
    const [updated] = (await tx
      .update(this.table)
      .set({ ...stored, updatedAt: this.ctx.clock.now() })
      .where(and(eq(t.id, id), inCompany(t, companyId)))
      .returning()) as R[];
    this.assertWithin(auth, updated!);
    await this.afterWrites(scope, auth.actor, current, updated!);
    changes.add(this.def.name, 'modified', this.visible(updated!));
    return updated!;
  }

  /**
   * PUT (`data` from the full input schema, so omitted optional fields are back to their defaults) and
   * PATCH (`data` holds only the fields sent: the others keep their values).
   */
  async update(
    actor: Actor | null,
    companyId: string | null,
    id: string,
    data: Record<string, unknown>,
    scope?: WriteScope,
    opts: UpdateOptions = {},
  ) {
    const auth = writeAccess(this.def.name, actor, companyId, 'update');
    const row = await this.run(companyId, scope, (s) => this.updateOne(s, auth, companyId, id, data, '', opts));
    const [out] = await this.present(companyId ?? '', [row]);
    return out!;
  }

  /** All or nothing: one bad entry rolls back every change (docs/design.md §3). */
  async bulkUpdate(
    actor: Actor | null,
    companyId: string,
    updates: { id: string; data: Record<string, unknown> }[],
    scope?: WriteScope,
  ) {
    const auth = writeAccess(this.def.name, actor, companyId, 'update');
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
      const out: R[] = [];
      for (const [i, u] of updates.entries()) {
        try {
          out.push(await this.updateOne(s, auth, companyId, u.id, u.data, `updates.${i}.data.`));
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

  async remove(actor: Actor | null, companyId: string, id: string, scope?: WriteScope) {
    const auth = writeAccess(this.def.name, actor, companyId, 'delete');
    const who = auth.actor;
    const row = await this.run(companyId, scope, async (s) => {
      const { tx, changes } = s;
      const current = await this.find(tx, companyId, id, this.writeReach(auth), true);
      for (const hook of this.hooks.beforeDelete.list()) await hook(this.ctx, tx, who, current, companyId);
      const t = this.def.table;
      const now = this.ctx.clock.now();
      const [deleted] = (await tx
        .update(this.table)
        .set({ deletedAt: now, updatedAt: now })
        .where(and(eq(t.id, id), eq(t.companyId, companyId)))
        .returning()) as R[];
      await this.afterWrites(s, who, current, deleted!);
      changes.add(this.def.name, 'removed', this.visible(deleted!));
      return deleted!;
    });
    const [out] = await this.present(companyId, [row]);
    return out!;
  }

  /** A record as the service presents it to a caller with every field (after an internal write). */
  async presentOne(companyId: string, row: R): Promise<R> {
    const [out] = await this.present(companyId, [row]);
    return out!;
  }
}

/**
 * What serving a resource needs of its service, whatever its row: its definition, reads and writes (the
 * resource routes, idempotent replays). Every resource's service is one, typed by its own row or not.
 */
export type ServedResource = Pick<
  ResourceService,
  'def' | 'list' | 'get' | 'create' | 'update' | 'bulkUpdate' | 'remove'
>;

/**
 * The write's data with each person name at `paths` (dotted, one level of object per dot) title-cased; a
 * path the write does not carry, or whose value is not text, is left as it is. Copies what it changes.
 */
export function withPersonNames(data: Record<string, unknown>, paths: readonly string[]): Record<string, unknown> {
  let out = data;
  for (const path of paths) {
    const [head, ...rest] = path.split('.');
    const value = out[head!];
    if (rest.length === 0) {
      if (typeof value === 'string' && value.trim() !== '') out = { ...out, [head!]: titleCaseName(value) };
    } else if (value && typeof value === 'object' && !Array.isArray(value)) {
      const inner = withPersonNames(value as Record<string, unknown>, [rest.join('.')]);
      if (inner !== value) out = { ...out, [head!]: inner };
    }
  }
  return out;
}

function withoutKeys(data: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out = { ...data };
  for (const k of keys) delete out[k];
  return out;
}

function withoutUndefined(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).filter(([, v]) => v !== undefined));
}
