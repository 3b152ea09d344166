import { z } from 'zod';

/**
 * `GET /api/config` (docs/design.md §3): the public runtime configuration of the request's shop, which the pages'
 * header and the sign-in screens read. The web takes its type only (no zod in the storefront's first load).
 */
export const PublicConfig = z.object({
  companyId: z.string().nullable(),
  marketName: z.string(),
  /** The logo saved in the shop's settings (a stored file's path), shown in its header; null: none. */
  logo: z.object({ path: z.string() }).nullable(),
  googleSignIn: z.boolean(),
  emailPasswordSignIn: z.boolean(),
  paymentMethods: z.array(z.string()),
  /** The shop's origin (no trailing slash): absolute links in canonical URLs and Open Graph tags. */
  publicUrl: z.string(),
  /** The bakery's setup checklist lacks its minimum: the shop says "Abrimos pronto". */
  opening: z.boolean(),
});
export type PublicConfig = z.infer<typeof PublicConfig>;
