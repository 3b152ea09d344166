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
    lat: z.number().min(-90, 'Latitude is -90 to 90').max(90, 'Latitude is -90 to 90').nullable().default(null),
    lng: z.number().min(-180, 'Longitude is -180 to 180').max(180, 'Longitude is -180 to 180').nullable().default(null),
  })
  .strict()
  // A map pin is both coordinates or none: half a pin routes nowhere.
  .refine((a) => (a.lat === null) === (a.lng === null), {
    path: ['lng'],
    message: 'Give both lat and lng, or neither',
  });

export const User = baseRecord.extend({
  /** The same as `id`: the session user's name for it (docs/product.md §3). */
  uid: z.string(),
  companyId: z.string().nullable(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  phone: z.string().nullable(),
  addresses: z.array(address),
  disabled: z.boolean(),
  emailVerified: z.boolean(),
  lastLoginAt: z.string().nullable(),
  /** When the pending invitation was last sent; null once the person chose a password or signed in. */
  invitedAt: z.string().nullable().default(null),
});
export type User = z.infer<typeof User>;

/** The identity service's answer to a sign-in, a refresh or a password change (docs/design.md §1). */
export const IdentitySession = z.object({
  idToken: z.string(),
  /** Seconds the id token lives. */
  expiresIn: z.number().int(),
  user: z.object({ uid: z.string(), email: z.string(), name: z.string(), emailVerified: z.boolean() }),
});
export type IdentitySession = z.infer<typeof IdentitySession>;

/** The backend login's answer (docs/product.md §7): who the token's user is to the bakery. */
export const BackendLogin = z.object({ name: z.string(), role: z.enum(ROLES), companyId: z.string().nullable() });
export type BackendLogin = z.infer<typeof BackendLogin>;

/** A registration's answer (docs/product.md §3: the user under `data.user`). */
export const Registered = z.object({
  user: z.object({
    uid: z.string(),
    email: z.string(),
    name: z.string(),
    role: z.enum(ROLES),
    companyId: z.string().nullable(),
  }),
});
