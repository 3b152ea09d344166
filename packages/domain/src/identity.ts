import { z } from 'zod';
import { COMPANY_ROLES, ROLES } from './roles';
import { titleCaseName } from './names';
import { shortText } from './schemas/common';
import { address } from './schemas/users';

export { AUTH_MESSAGES } from './messages';

/** Password rules (NIST 800-63B): 8 to 128 characters of any kind, no composition rules. */
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
/** Counted in Unicode code points, after NFC, so an emoji or an accented letter is one character. */
export function passwordLength(password: string): number {
  return [...password.normalize('NFC')].length;
}
export const password = () =>
  z
    .string()
    .refine((p) => passwordLength(p) >= PASSWORD_MIN, `Password must have at least ${PASSWORD_MIN} characters`)
    .refine((p) => passwordLength(p) <= PASSWORD_MAX, `Password must have at most ${PASSWORD_MAX} characters`);

export const email = () =>
  z
    .email('Invalid email address')
    .max(254)
    .transform((e) => e.trim().toLowerCase());

export const SignInInput = z.object({ email: z.string().max(254), password: z.string().max(1024) }).strict();

/** Registration (docs/product.md §7): shape checked by the service so that docs/product.md §5's messages come out exactly. */
export const RegisterInput = z
  .object({
    email: z.unknown().optional(),
    password: z.unknown().optional(),
    name: z.unknown().optional(),
    role: z.unknown().optional(),
    companyId: z.unknown().optional(),
    phone: z.unknown().optional(),
  })
  .strict();

/** POST /api/auth/login (docs/product.md §7): the e-mail of the bearer's own account. */
export const LoginInput = z.object({ email: z.string().max(254) }).strict();
export type LoginInput = z.infer<typeof LoginInput>;

/**
 * GET /api/companies: the bakeries a system admin may act on, those whose name contains `search`. `per_page` is
 * read from the query's text; a caller gives a number or leaves it out (20).
 */
export const CompaniesQuery = z
  .object({
    search: z.string().trim().max(120).optional(),
    per_page: z.coerce.number<number>().int().min(1).max(100).default(20),
  })
  .strict();
export type CompaniesQuery = z.input<typeof CompaniesQuery>;
/** One bakery a system admin may act on: what the switcher lists. */
export const CompanyChoice = z.object({ id: z.string(), name: z.string() });
export type CompanyChoice = z.infer<typeof CompanyChoice>;

export const CreateBakeryInput = z
  .object({
    name: z.string().trim().min(1).max(120),
    phone: z.string().trim().max(40).nullable().default(null),
    whatsapp: z.string().trim().max(40).nullable().default(null),
    address: z.string().trim().max(300).nullable().default(null),
  })
  .strict();

/**
 * A person's name as a form sends it, stored title-cased except particles (docs/product.md §1): "carlos andrés de la
 * hoz" is kept as "Carlos Andrés de la Hoz", so the header, the lists and the e-mails read it right.
 */
export const personName = () => z.string().trim().min(1, 'Required').max(120).transform(titleCaseName);

/** POST /api/identity/shoppers: a shopper makes their own customer account at the shop. */
export const ShopperSignUpInput = z.object({ email: email(), password: password(), name: personName() }).strict();

export const MeInput = z
  .object({
    name: personName(),
    phone: z.string().trim().max(40).nullable(),
    addresses: z.array(address).max(10),
  })
  .partial()
  .strict();
/** What a client sends to PATCH /api/me (MeInput before its transforms). */
export type MeBody = z.input<typeof MeInput>;

export const PasswordChangeInput = z
  .object({ currentPassword: z.string().max(1024), newPassword: password() })
  .strict();

/** POST /api/identity/password-reset: any string up to an e-mail's length (unknown ones get the same answer). */
export const PasswordResetRequestInput = z.object({ email: z.string().trim().min(1).max(254) }).strict();

/** The single-use code of a mailed link (`id.secret`). */
const actionCode = () => z.string().min(1).max(200);

/**
 * With a mailed link's proof, the owner of an account a bakery made for their address says whether it stays
 * in that bakery (`true`); otherwise the proof takes it out. Ignored for any other account.
 */
const accept = () => z.boolean().optional();

export const PasswordResetConfirmInput = z
  .object({ token: actionCode(), password: password(), accept: accept() })
  .strict();

export const VerifyEmailInput = z.object({ token: actionCode(), accept: accept() }).strict();
export type VerifyEmailInput = z.input<typeof VerifyEmailInput>;
/** An e-mail address confirmed by its link. */
export const EmailVerified = z.object({ email: z.string(), emailVerified: z.literal(true) });
export type EmailVerified = z.infer<typeof EmailVerified>;

/** POST /api/identity/link-info: what a recovery, invitation or verification link's page must ask first. */
export const LinkInfoInput = z.object({ token: actionCode() }).strict();

/**
 * `madeBy`: the bakery that made the link's account for this address (and the role it gave), whose owner
 * has not proven it yet; the page asks whether to stay in it (`accept`). Null for any other account, an
 * invitation (its link accepts), and a link that is not valid (the proof itself then says why).
 * `invitation`: set for a live invitation's link only.
 */
export const LinkInfo = z.object({
  madeBy: z.object({ bakery: z.string(), role: z.enum(ROLES) }).nullable(),
  /** An invitation's link: the bakery that invited, whose voice its page takes. */
  invitation: z.object({ bakery: z.string() }).nullable(),
  /** The link's account hears from Hornada (an owner's, areas.ts hearsFromPlatform): so does its page. */
  platform: z.boolean(),
});
export type LinkInfo = z.infer<typeof LinkInfo>;

/** POST /api/identity/google/exchange: the single-use code the callback handed the web app. */
export const GoogleExchangeInput = z.object({ code: actionCode() }).strict();

/** GET /api/identity/google/start: `redirect`, a path on this site to open afterwards (anything else is dropped). */
export const GoogleStartQuery = z.object({ redirect: z.string().max(2000).optional() });
export type GoogleStartQuery = z.infer<typeof GoogleStartQuery>;

/**
 * POST /api/auth/google-auth, docs/product.md §7's payload; only `email` is read (it must be the caller's): role and
 * companyId are never trusted.
 */
export const GoogleAuthInput = z
  .object({
    idToken: z.string().max(4096).optional(),
    email: z.string().max(254),
    name: z.string().max(500).nullish(),
    user: z.unknown().optional(),
    additionalUserInfo: z.unknown().optional(),
    uid: z.string().max(200).optional(),
    role: z.unknown().optional(),
    companyId: z.unknown().optional(),
  })
  .strict();
export type GoogleAuthInput = z.infer<typeof GoogleAuthInput>;

export const RoleSchema = z.enum(ROLES);

/** PUT/PATCH of a user by an admin: profile, role and the disabled flag (e-mail and password have their own paths). */
export const UserUpdateInput = z
  .object({
    name: personName(),
    role: z.enum(COMPANY_ROLES as [string, ...string[]]),
    phone: shortText(40).default(null),
    addresses: z.array(address).max(10).default([]),
    disabled: z.boolean().default(false),
  })
  .strict();

/**
 * POST /api/companies/{companyId}/users: an admin creates any company role, assistants included (docs/design.md §4).
 * The new person gets a password now, or `invite: true`: no password, and an e-mailed link to choose one.
 */
export const UserCreateInput = UserUpdateInput.extend({
  email: email(),
  password: password().optional(),
  invite: z.boolean().optional(),
}).refine((u) => (u.password !== undefined) !== (u.invite === true), {
  message: 'Give a password or send an invitation, not both',
  path: ['password'],
});

export { NAME_PARTICLES, titleCaseName } from './names';
