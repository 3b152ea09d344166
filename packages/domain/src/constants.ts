/** Business constants of docs/product.md §9 and docs/design.md §3–§4. */
export const REQUEST_TIMEOUT_MS = 10_000;
export const LIST_DEFAULTS = { page: 1, perPage: 10, sort: '-createdAt' } as const;
export const MAX_PER_PAGE = 1000;
export const MAX_BODY_BYTES = 1_048_576;
/** Deepest nesting of arrays and objects a JSON body may have; deeper is a 400 before parsing. */
export const MAX_JSON_DEPTH = 64;
export const DEFAULT_TIME_ZONE = 'America/Bogota';
export const SESSION_ID_LENGTH = 20;
/** Design §3: a cart holds 1 to 100 lines, each of 1 to 1,000 units. */
export const CART_MAX_LINES = 100;
export const CART_MAX_QUANTITY = 1000;
/** Spec §2/§9: the Products menu closes this long after the pointer leaves. */
export const DROPDOWN_CLOSE_DELAY_MS = 150;
export const MONEY_MAX = 100_000_000;
/**
 * How far ahead an order may be due: the day picker's 62 days, today included, so the last
 * bookable day is today + 61 in the company's time zone. Carts, checkout and staff orders alike.
 */
export const BOOKING_HORIZON_DAYS = 62;
/** Open carts one holder (a browser session or a customer) keeps in a bakery; a new one evicts the oldest. */
export const CART_OPEN_PER_HOLDER = 5;
/** A cart nobody wrote to for this many days is deleted (its contact and address with it). */
export const CART_RETENTION_DAYS = 30;
/** Unpaid web orders due the same day with one phone that make each of them suspicious to staff. */
export const SUSPICIOUS_SAME_PHONE = 3;
export const NAME_MAX = 120;
export const DESCRIPTION_MAX = 5000;
export const PRODUCT_IMAGES_MAX = 10;

/** File storage (docs/product.md §5, §9; docs/design.md §1): uploads are images of at most 5 MB and 40 megapixels. */
export const FILE_MAX_BYTES = 5 * 1024 * 1024;
export const FILE_MAX_PIXELS = 40_000_000;
/**
 * The widths an image is stored in, for the storefront's srcset (the cards are 50vw on a phone and 260 px
 * on a desktop, at 1x to 3x; the product page's picture is the phone's width): a picture narrower than the
 * largest is never enlarged. Measured with Lighthouse's phone (412 px at 1.75x): the home page's cards pick
 * 480 (they loaded 640), the product page's picture 720 (it loaded 960: 130 KB, its largest paint).
 */
export const IMAGE_WIDTHS = [320, 480, 720, 960] as const;
/** Spec §9: how long the client keeps retrying an operation (a delete) and an upload. */
export const STORAGE_MAX_OPERATION_RETRY_MS = 120_000;
export const STORAGE_MAX_UPLOAD_RETRY_MS = 600_000;

export const ALLERGENS = ['gluten', 'huevo', 'leche', 'frutos secos', 'maní', 'soya', 'sésamo'] as const;
export type Allergen = (typeof ALLERGENS)[number];

export const UNITS = ['g', 'kg', 'ml', 'l', 'unidad'] as const;
export type Unit = (typeof UNITS)[number];

export const PAYMENT_METHODS = ['cash', 'transfer', 'online'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

/** Fields the spec (§3, §9) turns into Date objects on the client. */
export const DATE_FIELDS = [
  'createdAt',
  'updatedAt',
  'dueDate',
  'preparationDate',
  'lastLoginAt',
  'deletedAt',
  'completedAt',
] as const;

/**
 * The resources a guest's live stream may follow (the permission table's `public` reads, policy.ts; a test
 * keeps the two alike): a stream opened without a token asks only for these, never for a signed-in list a
 * page that is being left still follows (a 401 each).
 */
export const GUEST_LIVE_RESOURCES: readonly string[] = ['brands', 'productCollections', 'products', 'settings'];
