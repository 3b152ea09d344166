import { z } from 'zod';
import { DESCRIPTION_MAX, MONEY_MAX, NAME_MAX } from '../constants';

/** Trimmed text; an empty optional text is stored as null. */
export const name = () => z.string().trim().min(1, 'Required').max(NAME_MAX);
export const description = () => z.string().trim().max(DESCRIPTION_MAX).nullable();
export const shortText = (max = 200) => z.string().trim().max(max).nullable();
export const money = () => z.number().int('Must be a whole number').min(0).max(MONEY_MAX);
/** Decimals kept to 4 places (docs/design.md §4): rounded on input. */
export const decimal4 = () =>
  z
    .number()
    .min(0)
    .max(1e9)
    .transform((n) => Math.round(n * 10_000) / 10_000);
export const recordId = () => z.string().min(1).max(64);
export const ref = () => recordId().nullable();
/** A company's routes (`/api/companies/{companyId}/…`): the path's parameters. */
export const CompanyParams = z.object({ companyId: recordId() });
export type CompanyParams = z.infer<typeof CompanyParams>;

/** One record of a company's resource (`/api/companies/{companyId}/{resource}/{id}`). */
export const RecordParams = CompanyParams.extend({ id: recordId() });
export type RecordParams = z.infer<typeof RecordParams>;

/**
 * `PATCH /api/companies/{companyId}/{resource}/bulk-update`: each record's id with the resource's own patch, all
 * applied or none; built per resource, since `patch` is its definition's.
 */
export const bulkUpdateInput = <P extends z.ZodType>(patch: P) =>
  z
    .object({
      updates: z
        .array(z.object({ id: recordId(), data: patch }).strict())
        .min(1, 'Updates array is required')
        .max(1000),
    })
    .strict();

export const imageRef = () =>
  z
    .object({
      path: z.string().min(1).max(500),
      alt: z.string().trim().max(300).default(''),
    })
    .strict();

/** Fields every record has and the server alone writes (docs/design.md §4); sent back, they are ignored. */
export const BASE_READ_ONLY = ['id', 'companyId', 'createdAt', 'updatedAt', 'deletedAt'] as const;

export const baseRecord = z.object({
  id: z.string(),
  companyId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type BaseRecord = z.infer<typeof baseRecord>;

/**
 * PATCH takes any subset of the writable fields and must not fill in defaults (zod's partial() would),
 * so the defaults are taken off before making every field optional.
 */
export function toPatchSchema<S extends z.ZodRawShape>(schema: z.ZodObject<S>) {
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape)) {
    const inner = field instanceof z.ZodDefault ? (field.unwrap() as z.ZodType) : (field as z.ZodType);
    shape[key] = inner.optional();
  }
  return z.object(shape).strict() as unknown as z.ZodType<Partial<z.output<z.ZodObject<S>>>>;
}
