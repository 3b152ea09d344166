/**
 * Every bakery a shop (docs/design.md §4): its storefront's host name is `{slug}.{the PUBLIC_URL host}`, so a
 * slug is one DNS label that a browser sends as it is: lower-case ASCII letters, digits and inner hyphens.
 */

/** At most this long: a DNS label is at most 63 characters; room is left for a clash's number. */
export const SLUG_MAX = 50;

/**
 * Labels a bakery may not take: host names a deployment gives its own services, and ones a shopper could be
 * fooled by. A name that slugifies to one of them gets a number, like a clash.
 */
export const RESERVED_SLUGS: ReadonlySet<string> = new Set([
  'www',
  'api',
  'app',
  'admin',
  'dashboard',
  'mail',
  'smtp',
  'imap',
  'ftp',
  'static',
  'assets',
  'files',
  'cdn',
  'status',
  'help',
  'soporte',
  'hornada',
  'localhost',
]);

const SLUG_RE = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;

/**
 * A label a shop may have: the pattern above, not reserved, and no hyphens in the third and fourth places
 * (IDNA keeps `xn--` and its kin for punycode: a slug there would read as another, non-ASCII name).
 */
export function isValidSlug(slug: string): boolean {
  return slug.length <= SLUG_MAX && SLUG_RE.test(slug) && slug.slice(2, 4) !== '--' && !RESERVED_SLUGS.has(slug);
}

/**
 * The slug a name gives: accents dropped ("Panadería" → "panaderia"), anything else not a letter or digit a
 * hyphen (runs of them one), lower case. A name with nothing ASCII left (emoji, another script) gives
 * "panaderia"; a reserved result gets the suffix "-panaderia", so the result always passes isValidSlug.
 */
export function slugify(name: string): string {
  const base = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX - 12)
    .replace(/-+$/, '');
  if (!base) return 'panaderia';
  return isValidSlug(base) ? base : `${base}-panaderia`;
}

/** The nth candidate for a slug: the slug itself, then "-2", "-3"… (docs/design.md §4: "a number added on a clash"). */
export const slugCandidate = (slug: string, n: number): string => (n <= 1 ? slug : `${slug}-${n}`);

/** What the setup checklist reads: the public settings and the active products (public field set). */
export interface ChecklistInput {
  settings: {
    logo?: unknown;
    phone?: string | null;
    whatsapp?: string | null;
    deliveryDays?: readonly number[];
    deliveryWindows?: readonly unknown[];
    paymentMethods?: readonly string[];
    transferInstructions?: string | null;
  };
  products: readonly { active?: boolean; images?: readonly unknown[] }[];
}

export type ChecklistItemId = 'logoAndContact' | 'delivery' | 'product' | 'payments';

export interface ChecklistItem {
  id: ChecklistItemId;
  done: boolean;
  /** Part of the minimum: until every required item is done the shop says "Abrimos pronto". */
  required: boolean;
}

export interface SetupChecklist {
  items: ChecklistItem[];
  /** Every required item done: the shop is open. */
  ready: boolean;
}

/**
 * A new bakery's setup checklist. Required: a way to be reached (phone or WhatsApp), delivery days
 * with at least one window, an active product, and payment methods a shopper can use (a transfer needs its
 * instructions). The logo and a product's photo complete their items but do not keep the shop closed.
 */
export function setupChecklist({ settings, products }: ChecklistInput): SetupChecklist {
  const contact = !!(settings.phone || settings.whatsapp);
  const active = products.filter((p) => p.active !== false);
  const methods = settings.paymentMethods ?? [];
  const items: ChecklistItem[] = [
    { id: 'logoAndContact', done: contact && !!settings.logo, required: false },
    {
      id: 'delivery',
      done: (settings.deliveryDays?.length ?? 0) > 0 && (settings.deliveryWindows?.length ?? 0) > 0,
      required: true,
    },
    { id: 'product', done: active.some((p) => (p.images?.length ?? 0) > 0), required: false },
    {
      id: 'payments',
      done: methods.length > 0 && (!methods.includes('transfer') || !!settings.transferInstructions?.trim()),
      required: true,
    },
  ];
  const ready = items.every((i) => !i.required || i.done) && contact && active.length > 0;
  return { items, ready };
}
