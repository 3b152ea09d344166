import { z } from 'zod';
import { ROLES } from '../roles';
import { baseRecord } from './common';

export const address = z
  .object({
    label: z.string().trim().max(60).nullable().default(null),
    line: z.string().trim().min(1).max(300),
    neighborhood: z.string().trim().max(120).nullable().default(null),
    city: z.string().trim().max(120).nullable().default(null),
    notes: z.string().trim().max(500).nullable().default(null),
    lat: z.number().min(-90).max(90).nullable().default(null),
    lng: z.number().min(-180).max(180).nullable().default(null),
  })
  .strict();

export const User = baseRecord.extend({
  companyId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  phone: z.string().nullable(),
  addresses: z.array(address),
  disabled: z.boolean(),
  emailVerified: z.boolean(),
  lastLoginAt: z.string().nullable(),
});
export type User = z.infer<typeof User>;
