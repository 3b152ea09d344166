import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { onCommit } from '../db/change-log';
import type { ResourceRegistry } from '../resources/registry';
import type { DueJob } from '../lib/due-job';
import type { EmailDriver } from '../providers/email';
import { CartCleanup, CartsService } from './carts';
import { FilesService } from './files';
import { AccountEmailService, GoogleSignIn, IdentityService } from './identity';
import { awaitsOwner, releaseAddress } from './identity';
import { issueActionToken } from './identity';
import { endSessionsOf } from './identity';
import { createGeocoder } from '../providers/geocoding';
import { AddressPlacing } from './delivery';
import { DeliveryService } from './delivery';
import { OrderMailService, orderMailHook } from './orders';
import { OrdersService } from './orders';
import { PaymentReconciliation, PaymentsService } from './payments';
import { ProductionService } from './production';
import { productRecipeHook } from './production';
import { stockMoveHook } from './production';
import { ReceivablesService } from './reports';
import { SalesReportService } from './reports';
import { StandingOrdersJob, standingOrderRules } from './standing-orders';

/**
 * Where each module's rules run among the others on the orders resource (lower first). The orders
 * module prices, numbers and moves the order and writes its history; payments, production (stock) and
 * delivery add theirs after it, each under its own name, so none overwrites another's.
 */
export const ORDER_HOOKS = { rules: 100, production: 120, mail: 130 } as const;

/** Identity's rules on users run after the definition's (0). */
export const USER_HOOKS = { endSessions: 100, invite: 110, releaseAddress: 120 } as const;

/** Every module's service, built once for the app (routes, the seed and tests use these). */
export interface Modules {
  carts: CartsService;
  orders: OrdersService;
  payments: PaymentsService;
  identity: IdentityService;
  /** The account's mail: verification, recovery, invitations, Google notices. */
  accountEmail: AccountEmailService;
  /** Sign-in with Google (null: not configured). */
  google: GoogleSignIn | null;
  receivables: ReceivablesService;
  /** The customer's and the bakery's order mail. */
  orderMail: OrderMailService;
  sales: SalesReportService;
  production: ProductionService;
  delivery: DeliveryService;
  files: FilesService;
  /** Carts past their time; also run when a cart is made. */
  cartCleanup: CartCleanup;
  /** Makes standing orders' orders; also run for a company after a write to its standing orders. */
  standingOrders: StandingOrdersJob;
  /** Places delivery addresses on the map (null: GEOCODER=off). */
  addressPlacing: AddressPlacing | null;
  /** The background jobs, started when the app is ready and stopped when it closes (app.ts), in this order. */
  jobs: readonly DueJob[];
  /** Mail still being handed over, finished before the database closes. */
  settled(): Promise<void>;
}

/**
 * The app's composition (style habit 13): builds each module's service once and attaches the modules'
 * rules to the resources as ordered, named hooks. buildApp calls it before any route is registered, so
 * the seed and the tests get the same rules as the API without depending on a route file.
 */
export function composeModules(
  ctx: AppContext,
  resources: ResourceRegistry,
  email: EmailDriver,
  log: FastifyBaseLogger,
): Modules {
  const carts = new CartsService(ctx);
  const payments = new PaymentsService(ctx, resources);
  const orders = new OrdersService(ctx, resources, carts, payments);
  const identity = new IdentityService(ctx, resources);
  const accountEmail = new AccountEmailService(ctx, resources, email, log);
  const google = ctx.config.google
    ? new GoogleSignIn(ctx, resources, ctx.config.google, log, (uid) => accountEmail.notifyGoogleOwner(uid))
    : null;
  const receivables = new ReceivablesService(ctx, resources);
  const orderMail = new OrderMailService(ctx, orders, email, log);
  const sales = new SalesReportService(ctx);
  const production = new ProductionService(ctx);
  const files = new FilesService(ctx);
  const geocoder = createGeocoder(ctx.config.geocoding);
  const addressPlacing = geocoder ? new AddressPlacing(ctx, resources, geocoder, log) : null;
  const delivery = new DeliveryService(ctx, resources, addressPlacing);
  const standingOrders = new StandingOrdersJob(ctx, resources, orders.rules, log);
  // Carts past their time, attempts nobody reported (reconciliation.ts), standing orders due, addresses to place.
  const cartCleanup = new CartCleanup(ctx, log);
  const jobs: DueJob[] = [
    cartCleanup,
    new PaymentReconciliation(ctx, resources, payments, log),
    standingOrders,
    ...(addressPlacing ? [addressPlacing] : []),
  ];

  resources.hooksOf('orders').beforeWrite.add('orders:rules', orders.rules.beforeWrite, { order: ORDER_HOOKS.rules });
  // A gateway's write: its payment in history, and a paid web order confirmed (docs/design.md §5): a step of
  // the order's own update, after its rules.
  orders.rules.addStep('payments:gateway', payments.gatewayStep);
  // Units marked produced take their ingredients out of stock, and a correction down puts them back.
  resources
    .hooksOf('orders')
    .afterWrite.add('production:stock', stockMoveHook(resources), { order: ORDER_HOOKS.production });
  // A standing order that can order (docs/design.md §3): its start and window defaulted, a window it cannot use refused.
  resources
    .hooksOf('standingOrders')
    .beforeWrite.add('standing-orders:rules', standingOrderRules(orders.rules), { order: 100 });
  // A recipe made for a product without one becomes its recipe (the product's form shows it).
  resources
    .hooksOf('recipes')
    .afterWrite.add('production:product-recipe', productRecipeHook(resources), { order: 100 });
  // The customer told by mail of an order placed and of its status; the bakery of a new web order.
  resources.hooksOf('orders').afterWrite.add('orders:mail', orderMailHook(orderMail), { order: ORDER_HOOKS.mail });
  // Disabling or deleting a user, by whatever write, ends every session of theirs in the same transaction.
  resources.hooksOf('users').afterWrite.add(
    'identity:end-sessions',
    async (hookCtx, tx, _actor, before, after) => {
      const disabledNow = after.disabled && before?.disabled !== true;
      if (disabledNow || (after.deletedAt && !before?.deletedAt)) await endSessionsOf(tx, hookCtx.clock, after.id);
    },
    { order: USER_HOOKS.endSessions },
  );

  // A person a user creates without a password (`invite: true`) gets a link to choose one: the code
  // is issued in the creating transaction and mailed after it commits.
  resources.hooksOf('users').afterWrite.add(
    'identity:invite',
    async (hookCtx, tx, actor, before, after) => {
      if (before || actor.kind !== 'user' || after.passwordHash) return;
      const user = {
        id: String(after.id),
        email: String(after.email),
        name: String(after.name),
        role: String(after.role),
        companyId: (after.companyId as string | null) ?? null,
      };
      const token = await issueActionToken(tx, hookCtx.clock, user.id, 'invitation');
      onCommit(tx, () => accountEmail.sendInvitation(user, token));
    },
    { order: USER_HOOKS.invite },
  );

  // A bakery deleting an account it made for an address its owner never proved frees the address.
  resources.hooksOf('users').afterWrite.add(
    'identity:release-address',
    async (_hookCtx, tx, _actor, before, after) => {
      if (!before || before.deletedAt || !after.deletedAt) return;
      const made = {
        createdBy: (before.createdBy as string | null) ?? null,
        emailVerified: before.emailVerified === true,
      };
      if (awaitsOwner(made)) await releaseAddress(tx, String(after.id));
    },
    { order: USER_HOOKS.releaseAddress },
  );

  return {
    carts,
    orders,
    payments,
    identity,
    accountEmail,
    google,
    receivables,
    orderMail,
    sales,
    production,
    delivery,
    files,
    cartCleanup,
    standingOrders,
    addressPlacing,
    jobs,
    settled: async () => {
      await Promise.all([accountEmail.settled(), orderMail.settled()]);
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Each module's service, built once (modules/compose.ts). */
    modules: Modules;
  }
}
