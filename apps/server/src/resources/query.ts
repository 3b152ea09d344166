import { and, asc, desc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import { getTableColumns } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import { dayInZone, LIST_DEFAULTS, MAX_PER_PAGE, normaliseKey } from '@hornada/domain';
import { z } from 'zod';
import { validationError } from '../lib/errors';
import type { ResourceDefinition, ResourceTable } from './definition';

const TEXT_TYPES = new Set(['PgText', 'PgVarchar']);

export function columnsOf(table: ResourceTable): Record<string, PgColumn> {
  return getTableColumns(table) as Record<string, PgColumn>;
}

/** `today`, `today+N` or `today-N`: a day counted from the present one in the company's time zone. */
const RELATIVE_DAY = /^today(?:([+-])(\d{1,3}))?$/;

/**
 * A day bound of a list: `YYYY-MM-DD`, or a day relative to today in the company's time zone (`today`,
 * `today+6`, `today-1`), so a saved link to "today and upcoming" stays so tomorrow.
 */
const dayBound = z.union([z.iso.date(), z.string().regex(RELATIVE_DAY)], {
  error: () => 'Expected a date as YYYY-MM-DD, or today, today+N, today-N',
});

/** Whether `start` comes no later than `end` (both absolute or both relative; a mix is left to the query). */
function dayOrder(start: string, end: string): boolean {
  const offset = (d: string) => {
    const m = RELATIVE_DAY.exec(d);
    return m ? (m[1] === '-' ? -1 : 1) * Number(m[2] ?? 0) : null;
  };
  const a = offset(start);
  const b = offset(end);
  if (a === null && b === null) return start <= end;
  return a === null || b === null || a <= b;
}

/** Whether a list names a day relative to today: its answer changes at midnight, so it is never cached. */
export function hasRelativeDay(query: { start_date?: unknown; end_date?: unknown }): boolean {
  return [query.start_date, query.end_date].some((d) => typeof d === 'string' && RELATIVE_DAY.test(d));
}

/** A day bound as `YYYY-MM-DD`: a relative one counted from `now` in the time zone. */
export function resolveDay(bound: string, now: Date, timeZone: string): string {
  const m = RELATIVE_DAY.exec(bound);
  if (!m) return bound;
  const [y, mo, d] = dayInZone(now, timeZone).split('-').map(Number) as [number, number, number];
  const shift = (m[1] === '-' ? -1 : 1) * Number(m[2] ?? 0);
  return new Date(Date.UTC(y, mo - 1, d + shift)).toISOString().slice(0, 10);
}

/**
 * The list query string of docs/design.md §3 as a zod schema (so it is validated and documented).
 * Any parameter it does not name is a 400 naming it.
 */
export function listQuerySchema(def: ResourceDefinition) {
  const sortable = new Set(def.sortFields);
  const shape: Record<string, z.ZodType> = {
    page: z.coerce
      .number()
      .int('page must be a whole number')
      .min(1, 'page must be 1 or more')
      .default(LIST_DEFAULTS.page),
    per_page: z.coerce
      .number()
      .int('per_page must be a whole number')
      .min(1, 'per_page must be 1 or more')
      .max(MAX_PER_PAGE, `per_page must be at most ${MAX_PER_PAGE}`)
      .default(LIST_DEFAULTS.perPage),
    sort: z
      .string()
      .default(LIST_DEFAULTS.sort)
      .refine((s) => sortable.has(s.replace(/^-/, '')), {
        error: (issue) =>
          `Unknown sort field: ${String(issue.input).replace(/^-/, '')} (allowed: ${def.sortFields.join(', ')})`,
      }),
    search: z.string().trim().max(200).optional(),
    date_field: z
      .enum(def.dateFields as [string, ...string[]], {
        error: () => `Unknown date field (allowed: ${def.dateFields.join(', ')})`,
      })
      .optional(),
    start_date: dayBound.optional(),
    end_date: dayBound.optional(),
  };
  for (const f of def.filterFields) {
    const parse = filterParser(def, f);
    shape[f] = z
      .string()
      .max(2000)
      .superRefine((raw, ctx) => {
        // Checked here, not left to PostgreSQL: '1.5' on an integer column is a 400, never a 500.
        for (const value of raw.split(',')) {
          const r = parse(value);
          if (!r.ok) return ctx.addIssue({ code: 'custom', message: r.message });
        }
      })
      .optional()
      .describe(`Equality filter; comma = any of`);
  }
  for (const o of def.options ?? []) shape[o] = z.string().max(200).optional();
  return z
    .object(shape)
    .strict()
    .refine((q) => !(q.start_date && q.end_date) || dayOrder(String(q.start_date), String(q.end_date)), {
      message: 'start_date must not be after end_date',
      path: ['end_date'],
    });
}

export interface ListQuery {
  page: number;
  per_page: number;
  sort: string;
  search?: string;
  date_field?: string;
  start_date?: string;
  end_date?: string;
  [filter: string]: unknown;
}

/** A LIKE pattern that matches `s` literally (its own %, _ and \\ escaped). */
export function escapeLike(s: string): string {
  return s.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const INT4_MIN = -2_147_483_648;
const INT4_MAX = 2_147_483_647;

type Parsed = { ok: true; value: unknown } | { ok: false; message: string };

/** The domain schema of a field without its optional/nullable/default wrappers (enums, id lengths). */
function fieldSchema(def: ResourceDefinition, field: string): z.ZodType | undefined {
  let s = def.record.shape[field] as z.ZodType | undefined;
  while (s instanceof z.ZodOptional || s instanceof z.ZodNullable || s instanceof z.ZodDefault) {
    s = s.unwrap() as z.ZodType;
  }
  return s;
}

const filterParsers = new WeakMap<ResourceDefinition, Map<string, (raw: string) => Parsed>>();

/**
 * How one equality-filter value is checked and converted: by the column's SQL type (what PostgreSQL
 * would reject) and, for text, by the domain schema of the field (enum members, id lengths).
 */
export function filterParser(def: ResourceDefinition, field: string): (raw: string) => Parsed {
  // Built once per field: the schema and every list read use the same parser.
  let parsers = filterParsers.get(def);
  if (!parsers) filterParsers.set(def, (parsers = new Map()));
  let parse = parsers.get(field);
  if (!parse) parsers.set(field, (parse = buildFilterParser(def, field)));
  return parse;
}

function buildFilterParser(def: ResourceDefinition, field: string): (raw: string) => Parsed {
  const column = columnsOf(def.table)[field]!;
  switch (column.columnType) {
    case 'PgBoolean':
      return (raw) =>
        raw === 'true' || raw === 'false'
          ? { ok: true, value: raw === 'true' }
          : { ok: false, message: 'Expected true or false' };
    case 'PgInteger':
      return (raw) => {
        const n = /^-?\d{1,10}$/.test(raw) ? Number(raw) : NaN;
        return Number.isInteger(n) && n >= INT4_MIN && n <= INT4_MAX
          ? { ok: true, value: n }
          : { ok: false, message: `Expected a whole number from ${INT4_MIN} to ${INT4_MAX}` };
      };
    case 'PgNumericNumber':
    case 'PgNumeric': {
      const { precision, scale } = column as PgColumn & { precision?: number; scale?: number };
      const intDigits = Math.max(1, precision !== undefined ? precision - (scale ?? 0) : 15);
      const fraction = scale === 0 ? '' : `(\\.\\d{1,${scale ?? 15}})?`;
      const pattern = new RegExp(`^-?\\d{1,${intDigits}}${fraction}$`);
      return (raw) =>
        pattern.test(raw)
          ? { ok: true, value: Number(raw) }
          : { ok: false, message: `Expected a number with at most ${intDigits} digits before the point` };
    }
    default: {
      const schema = fieldSchema(def, field);
      return (raw) => {
        const r = schema ? schema.safeParse(raw) : { success: true as const };
        if (!r.success) return { ok: false, message: r.error.issues[0]?.message ?? 'Invalid value' };
        return { ok: true, value: raw };
      };
    }
  }
}

/** WHERE conditions for a list: company, not deleted, visibility, search, date range and filters. */
export function listConditions(
  def: ResourceDefinition,
  query: ListQuery,
  companyId: string,
  timeZone: string,
  visibility: SQL | undefined,
  now: Date = new Date(),
): SQL | undefined {
  const cols = columnsOf(def.table);
  const conds: (SQL | undefined)[] = [eq(def.table.companyId, companyId), isNull(def.table.deletedAt), visibility];

  // '#1241' is a number as people write it: that number, never a phone that happens to hold its digits.
  const numbered = def.searchNumber ? /^\s*#\s*(\d+)\s*$/.exec(query.search ?? '') : null;
  if (numbered) {
    conds.push(sql`${cols[def.searchNumber!]!} LIKE ${`${numbered[1]}%`}`);
  } else if (query.search) {
    const pattern = `%${escapeLike(normaliseKey(query.search))}%`;
    // COLLATE "C" at the call site: the function's result takes its argument's collation (docs/design.md §3).
    const matches = def.searchFields.map((f) => sql`hornada_norm(${cols[f]!}) COLLATE "C" LIKE ${pattern}`);
    const digits = query.search.replace(/\D/g, '');
    if (def.searchDigits?.length && digits.length >= 3 && /^[\d\s()+#.-]+$/.test(query.search)) {
      const digitPattern = `%${digits}%`;
      for (const f of def.searchDigits) {
        matches.push(sql`regexp_replace(${cols[f]!}, '[^0-9]', '', 'g') LIKE ${digitPattern}`);
      }
    }
    conds.push(or(...matches));
  }

  if (query.start_date || query.end_date) {
    const col = cols[query.date_field ?? 'createdAt']!;
    // Day bounds in the company's time zone, as instants, so an index on the column still serves.
    if (query.start_date) {
      const start = resolveDay(query.start_date, now, timeZone);
      conds.push(sql`${col} >= ((${start}::date)::timestamp AT TIME ZONE ${timeZone})`);
    }
    if (query.end_date) {
      const end = resolveDay(query.end_date, now, timeZone);
      conds.push(sql`${col} < (((${end}::date) + 1)::timestamp AT TIME ZONE ${timeZone})`);
    }
  }

  for (const field of def.filterFields) {
    const raw = query[field];
    if (typeof raw !== 'string') continue;
    const col = cols[field]!;
    const parse = filterParser(def, field);
    const values = raw.split(',').map((v) => {
      const r = parse(v);
      // The query schema has checked every value already; this guards callers that skip it.
      if (!r.ok) throw validationError([{ path: `query.${field}`, message: r.message }]);
      return r.value;
    });
    conds.push(values.length === 1 ? eq(col, values[0]) : inArray(col, values));
  }
  return and(...conds);
}

/**
 * ORDER BY of docs/design.md §3: text by the normalised key bytewise, ties broken by id. COLLATE "C" must be
 * written here: a SQL function's result takes the collation of its argument (the column's, else the
 * database default, ICU or en_US on many servers), whatever the function body says.
 */
export function listOrder(def: ResourceDefinition, sort: string): SQL[] {
  const cols = columnsOf(def.table);
  const descending = sort.startsWith('-');
  const col = cols[sort.replace(/^-/, '')]!;
  const key = TEXT_TYPES.has(col.columnType) ? sql`hornada_norm(${col}) COLLATE "C"` : sql`${col}`;
  const idKey = sql`${def.table.id} COLLATE "C"`;
  return [descending ? desc(key) : asc(key), asc(idKey)];
}
