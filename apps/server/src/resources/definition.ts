import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Grant, ResourceName, SystemReason } from '@hornada/domain';
import type { z } from 'zod';
import type { AppContext, Caller } from '../context';
import type { DbOrTx, Tx } from '../db';
import type { ChangeSet } from '../db/change-log';
import type { Actor } from './actor';

/** A transaction several writes share (registry.transaction): they commit together or not at all. */
export interface WriteScope {
  tx: Tx;
  changes: ChangeSet;
  /**
   * An import (IMPORT_REASONS) replaying its records' moves as the people who made them (the demo seed): the
   * hooks whose effects reach beyond the records (mail, stock) pass its writes by, as they do the import's own.
   */
  importing?: SystemReason;
}

/** A table the engine can serve: it has the base columns of docs/design.md §4. */
export type ResourceTable = PgTable & {
  id: PgColumn;
  companyId: PgColumn;
  createdAt: PgColumn;
  updatedAt: PgColumn;
  deletedAt: PgColumn;
};

export type Row = Record<string, unknown>;

/**
 * A reference checked on every write: `path` names a field, `*` stands for every index of an array
 * (`items.*.ingredientId`). The target must exist, undeleted, in the same company.
 */
export interface Reference {
  path: string;
  table: ResourceTable;
  label: string;
}

/** A rule on rows, in SQL for queries and in code for the change feed and for writes. */
export interface RowRule {
  where: (caller: Caller, table: ResourceTable) => SQL | undefined;
  test: (caller: Caller, doc: Row) => boolean;
}

/**
 * Checks and reshapes a write's data (inside its transaction); returns what is stored, or what the next
 * hook gets. `R` is the resource's stored row (a module adds hooks typed by its table, resources/hooks.ts).
 */
export type BeforeWrite<R extends object = Row> = (
  ctx: AppContext,
  tx: DbOrTx,
  actor: Actor,
  current: R | null,
  data: Record<string, unknown>,
  companyId: string,
) => Promise<Record<string, unknown>>;

/**
 * Checks a delete inside its transaction, before the row is marked deleted: throws to refuse it (the last
 * manager of a bakery, a user removing themselves). A delete carries no data, so it never reshapes any.
 */
export type BeforeDelete<R extends object = Row> = (
  ctx: AppContext,
  tx: DbOrTx,
  actor: Actor,
  current: R,
  companyId: string,
) => Promise<void>;

/**
 * Runs inside a write's transaction, after the row is written (delete included). `scope` lets a hook
 * write other resources through their services in the same transaction and change-log entry.
 */
export type AfterWrite<R extends object = Row> = (
  ctx: AppContext,
  tx: DbOrTx,
  actor: Actor,
  before: R | null,
  after: R,
  scope: WriteScope,
) => Promise<void>;

/**
 * Everything the engine needs to serve one resource (style habit 3): a definition, not handlers. Who may
 * do what is not here: it is the resource's entry in the permission table (`POLICY` in packages/domain).
 */
export interface ResourceDefinition {
  /** Path segment under /api/companies/{companyId}/, and the resource's name in the permission table. */
  name: ResourceName;
  /** Singular, for messages and the OpenAPI document. */
  label: string;
  table: ResourceTable;
  /** Create and PUT body: every writable field, optional ones with defaults. */
  input: z.ZodObject;
  /** POST body when it differs from PUT's (users: e-mail and password only on creation). */
  createInput?: z.ZodObject;
  /** PATCH body: any subset, no defaults (toPatchSchema). */
  patch: z.ZodType;
  /** The record as read, for the OpenAPI document. */
  record: z.ZodObject;
  searchFields: readonly string[];
  /**
   * Text fields a search of digits also matches digit for digit, whatever the separators on either side: a
   * number or a phone as people type them ('#1042', '310 555 0101' for '+57 310 555 0101').
   */
  searchDigits?: readonly string[];
  /** The text of a record's number: a search written '#1042' matches this field alone, from its start. */
  searchNumber?: string;
  sortFields: readonly string[];
  filterFields: readonly string[];
  dateFields: readonly string[];
  /** Plain query parameters this resource takes beyond filters (docs/design.md §3 "options"). */
  options?: readonly string[];
  /**
   * Which records the public reads (when the permission table gives the resource a public field set):
   * `where` in SQL for queries, `test` the same rule in code for the change feed.
   */
  publicRecords?: { where: (table: ResourceTable) => SQL | undefined; test: (doc: Row) => boolean };
  /** The row rules of the grants other than `company` that the permission table gives this resource. */
  rows?: Partial<Record<Exclude<Grant, 'company'>, RowRule>>;
  references?: readonly Reference[];
  /** Fields never sent nor logged (password hashes). */
  hidden?: readonly string[];
  /** The definition's own hooks: they run first; modules add theirs where the app is composed. */
  hooks?: {
    /** Checks and reshapes a write's data (inside its transaction); returns what is stored. */
    beforeWrite?: BeforeWrite;
    /** Checks a delete (before-write hooks never see one). */
    beforeDelete?: BeforeDelete;
    afterWrite?: AfterWrite;
  };
  /**
   * Paths of person names (`contactName`, `contact.name`): the engine title-cases them on every write it
   * makes, from the API, a module, a job or the seed alike (docs/product.md §1), never touching rows it does not write.
   */
  personNames?: readonly string[];
  /** Derived fields: read-only, computed after reading. */
  derived?: readonly string[];
  present?: (ctx: AppContext, companyId: string, rows: Row[]) => Promise<Row[]>;
  /**
   * The other resources `present` reads (a recipe's cost reads ingredients and products): a change to
   * one of them makes this resource's cached reads stale too. Required with `present` (a test walks
   * every definition), empty when it reads nothing else.
   */
  presentReads?: readonly ResourceName[];
}
