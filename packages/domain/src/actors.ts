import type { Action, ResourceName } from './policy';

/**
 * The actors that write without being a user acting under its role (style habit 13), and their lines of
 * the permission table: every write names who makes it, and nobody writes "as" someone it is not.
 *
 * - `system`: the server on its own behalf, always for a named reason (below);
 * - `gateway`: a payment gateway, whose events move an order's payment and nothing else;
 * - `guest`: whoever holds a cart at checkout without an account;
 * - a user acting outside its role's grants, under a line named here (`via`): placing an order from its
 *   cart (`checkout`), editing its own account (`account`).
 *
 * A line gives, per resource and action, the fields the actor may write (`all`: every field). A write
 * outside its line is refused (403) like a role's.
 */
export type WriteAction = Exclude<Action, 'read'>;
export type FieldGrant = 'all' | readonly string[];
export type ActorLine = Partial<Record<ResourceName, Partial<Record<WriteAction, FieldGrant>>>>;

/** Why the server writes on its own behalf. */
export const SYSTEM_REASONS = [
  'registration',
  'sign-in',
  'invitation',
  'sessions',
  'password',
  'verify-email',
  'join-orders',
  'takeover',
  'claim',
  'bakery',
  'market',
  'seed',
  'payment-abandoned',
  'standing-orders',
  'production',
  'geocoding',
] as const;
export type SystemReason = (typeof SYSTEM_REASONS)[number];

/** What the system may write for each reason. */
export const SYSTEM_LINES: Record<SystemReason, ActorLine> = {
  /** Identity creates the account someone registers (sign-up, a first Google sign-in, the demo accounts). */
  registration: { users: { create: ['email', 'name', 'role', 'passwordHash', 'emailVerified'] } },
  /** A successful sign-in is recorded on the account. */
  'sign-in': { users: { update: ['lastLoginAt'] } },
  /** An invitation sent again (by someone who may invite the person): when it was sent is recorded. */
  invitation: { users: { update: ['invitedAt'] } },
  /** Every session of an account ends (sign-out everywhere). */
  sessions: { users: { update: ['sessionsValidFrom'] } },
  /** A new password, after identity verified the current one or a reset link; every session ends. */
  password: { users: { update: ['passwordHash', 'sessionsValidFrom', 'emailVerified'] } },
  /** The e-mail is verified: a verification link, or an issuer that vouches for the address. */
  'verify-email': { users: { update: ['emailVerified'] } },
  /** A customer who proved their e-mail gets the guest orders placed with it at their bakery. */
  'join-orders': { orders: { update: ['customerId'] } },
  /**
   * A Google sign-in whose provider vouches for the e-mail takes over the account of that e-mail that was
   * never verified: its password goes, every session ends, the e-mail is verified.
   */
  takeover: { users: { update: ['passwordHash', 'emailVerified', 'sessionsValidFrom'] } },
  /**
   * The owner of an address proved it (a reset, a verification link, Google) on an account a bakery made for
   * it, without accepting that bakery: the account leaves it, a plain shopper of no bakery again, enabled;
   * the creator's password goes unless the owner just chose a new one, and every session ends.
   */
  claim: {
    users: { update: ['companyId', 'role', 'disabled', 'passwordHash', 'sessionsValidFrom', 'emailVerified'] },
  },
  /** A company admin without a bakery created one: the account joins it. */
  bakery: { users: { update: ['companyId'] } },
  /** A first Google sign-in registers the account as a customer of the market. */
  market: { users: { update: ['companyId', 'lastLoginAt'] } },
  /**
   * The demo bakery, once, into an empty database: its catalogue and clients. Its orders are placed and moved
   * by the demo's people and gateway, as they would have been (apps/server/src/seed/orders.ts).
   */
  seed: {
    productCollections: { create: 'all' },
    brands: { create: 'all' },
    ingredients: { create: 'all' },
    recipes: { create: 'all' },
    // A product is linked to its recipe once the recipe exists (a recipe names its product too).
    products: { create: 'all', update: ['recipeId'] },
    b2bClients: { create: 'all' },
  },
  /**
   * A web order paid online whose payment never completed within 24 hours is cancelled, so it stops
   * holding its delivery window's place (modules/payments/reconciliation.ts); only pending → cancelled.
   */
  'payment-abandoned': { orders: { update: ['status', 'cancelReason'] } },
  /**
   * A standing order's day entered the order horizon: its order is made (modules/standing-orders), once
   * per standing order and day (`standingDay`), priced by the order rules like any back-office order.
   */
  'standing-orders': {
    orders: {
      create: [
        'b2bClientId',
        'contact',
        'items',
        'fulfillment',
        'address',
        'dueDate',
        'window',
        'paymentMethod',
        'notes',
        'standingOrderId',
        'standingDay',
      ],
    },
  },
  /**
   * Units marked produced take their recipe's ingredients out of stock, and a correction down puts them
   * back, in the order's own transaction (modules/production/stock.ts): only the stock.
   */
  production: { ingredients: { update: ['stock'] } },
  /**
   * A delivery address placed on the map by the geocoder (modules/delivery/address-placing.ts): the
   * address's point only, never its text, and never over a person's pin (the order rules check both).
   */
  geocoding: { orders: { update: ['address'] } },
};

/**
 * Reasons whose records come as they were (their ids and times kept): the demo, built as if it had happened
 * over the past month.
 */
export const IMPORT_REASONS: readonly SystemReason[] = ['seed'];

/** A payment gateway moves an order's payment (docs/design.md §5: online payments) and flags money to give back, nothing else. */
export const GATEWAY_LINE: ActorLine = { orders: { update: ['paymentStatus', 'payment', 'refundsDue'] } };

/** Placing an order from a cart (docs/design.md §5): what checkout writes, the rules price and check the rest. */
export const CHECKOUT_LINE: ActorLine = {
  orders: {
    create: [
      'items',
      'contact',
      'fulfillment',
      'address',
      'dueDate',
      'window',
      'paymentMethod',
      'notes',
      'customerId',
      'cartId',
      'idempotencyKey',
      'requestHash',
      // The checkout bounds' keys of who placed it and from where (modules/orders/checkout-bounds.ts).
      'holderKey',
      'originKey',
    ],
  },
};

/** A guest holds a cart and checks it out; that is all it writes (carts are their own module). */
export const GUEST_LINE: ActorLine = CHECKOUT_LINE;

/** The lines a signed-in user acts under besides its role's grants. */
export const USER_LINES = {
  checkout: CHECKOUT_LINE,
  /** Its own account (GET/PATCH /api/me): only its own record. */
  account: { users: { update: ['name', 'phone', 'addresses'] } },
} as const satisfies Record<string, ActorLine>;
export type UserLine = keyof typeof USER_LINES;

/** Who writes, as the permission table sees it (the server adds the user's identity). */
export type ActorRef =
  { kind: 'system'; reason: SystemReason } | { kind: 'gateway' } | { kind: 'guest' } | { kind: 'user'; via: UserLine };

/** The line of an actor that is not a user under its role's grants. */
export function lineOf(actor: ActorRef): ActorLine {
  switch (actor.kind) {
    case 'system':
      return SYSTEM_LINES[actor.reason];
    case 'gateway':
      return GATEWAY_LINE;
    case 'guest':
      return GUEST_LINE;
    case 'user':
      return USER_LINES[actor.via];
  }
}

/** The fields an actor may write on a resource for an action, or null when its line does not reach it. */
export function actorFields(actor: ActorRef, resource: ResourceName, action: WriteAction): FieldGrant | null {
  return lineOf(actor)[resource]?.[action] ?? null;
}
