import { z } from 'zod';
import { baseRecord, money, name, shortText } from './common';
import { isValidNit } from './nit';

export const B2bClientInput = z
  .object({
    businessName: name(),
    taxId: z
      .string()
      .trim()
      .refine(isValidNit, 'Invalid NIT: expected digits, a dash and a correct check digit (900123456-7)')
      .nullable()
      .default(null),
    contactName: shortText(120).default(null),
    phone: shortText(40).default(null),
    email: z.email().max(254).nullable().default(null),
    address: shortText(300).default(null),
    discountPercent: z.number().min(0).max(100).default(0),
    prices: z
      .array(z.object({ productId: z.string().min(1).max(64), price: money() }).strict())
      .max(1000)
      .default([]),
    paymentTermsDays: z.number().int().min(0).max(120).default(0),
    creditLimit: money().default(0),
    active: z.boolean().default(true),
  })
  .strict();
export const B2bClient = baseRecord.extend(B2bClientInput.shape);
export type B2bClient = z.infer<typeof B2bClient>;
