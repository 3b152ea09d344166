import type { SQL } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Role } from '@hornada/domain';
import type { z } from 'zod';
import type { AppContext, Caller } from '../context';
import type { DbOrTx } from '../db';

/** A table the engine can serve: it has the base columns of design §4. */
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

/**
 * Everything the engine needs to serve one resource (style habit 3): a definition, not handlers.
 */
export interface ResourceDefinition {
  /** Path segment under /api/companies/{companyId}/. */
  name: string;
  /** Singular, for messages and the OpenAPI document. */
  label: string;
  table: ResourceTable;
  /** Create and PUT body: every writable field, optional ones with defaults. */
  input: z.ZodObject;
  /** POST body when it differs from PUT's (users: e-mail and password only on creation). */
  createInput?: z.ZodObject;
  /** PATCH body: any subset, no defaults. */
  patch: z.ZodType;
  /** The record as read, for the OpenAPI document. */
  record: z.ZodObject;
  searchFields: readonly string[];
  sortFields: readonly string[];
  filterFields: readonly string[];
  dateFields: readonly string[];
  /** Plain query parameters this resource takes beyond filters (design §3 "options"). */
  options?: readonly string[];
  read: {
    /** Roles of the company that read every record. */
    roles: readonly Role[];
    /**
     * When set, anyone (signed in or not, any company) reads the records it keeps: `where` in SQL
     * for queries, `test` the same rule in code for the change feed.
     */
    public?: { where: (table: ResourceTable) => SQL | undefined; test: (doc: Row) => boolean };
    /** Rows a reader of the company sees (staff see only customers among users), in SQL and in code. */
    restrict?: {
      where: (caller: Caller, table: ResourceTable) => SQL | undefined;
      test: (caller: Caller, doc: Row) => boolean;
    };
  };
  write: readonly Role[];
  /** Fields a role may write; a role not named here writes every field. */
  writable?: Partial<Record<Role, readonly string[]>>;
  references?: readonly Reference[];
  /** Fields never sent nor logged (password hashes). */
  hidden?: readonly string[];
  hooks?: {
    /** Checks and reshapes a write's data (inside its transaction); returns what is stored. */
    beforeWrite?: (
      ctx: AppContext,
      tx: DbOrTx,
      caller: Caller,
      current: Row | null,
      data: Record<string, unknown>,
    ) => Promise<Record<string, unknown>>;
    /** Runs in the same transaction after a write (delete included). */
    afterWrite?: (ctx: AppContext, tx: DbOrTx, caller: Caller, before: Row | null, after: Row) => Promise<void>;
  };
  /** Derived fields: read-only, computed after reading. */
  derived?: readonly string[];
  present?: (ctx: AppContext, companyId: string, rows: Row[]) => Promise<Row[]>;
}
