import type { FastifyBaseLogger } from 'fastify';
import type { AppContext } from '../context';
import { onCommit } from '../db/change-log';
import type { ResourceRegistry } from '../resources/registry';
import { CartsService } from './carts';
import { IdentityService } from './identity';
import { awaitsOwner, releaseAddress } from './identity';
import { issueActionToken } from './identity';
import { endSessionsOf } from './identity';
import { createGeocoder } from '../providers/geocoding';
import { AddressPlacing } from './delivery';
import { DeliveryService } from './delivery';
import { orderMailHook, type OrderMailService } from './orders';
import { OrdersService } from './orders';
import { PaymentsService } from './payments';
import { ProductionService } from './production';
import { productRecipeHook } from './production';
import { stockMoveHook } from './production';
import { ReceivablesService } from './reports';
import { SalesReportService } from './reports';
import { standingOrderRules } from './standing-orders';

/**
 * Where each module's rules run among the others on the orders resource (lower first). The orders
 * module prices, numbers and moves the order and writes its history; payments, production (stock) and
 * delivery add theirs after it, each under its own name, so none overwrites another's.
 */
export const ORDER_HOOKS = { rules: 100, production: 120, mail: 130 } as const;

/** Identity's rules on users run after the definition's (0). */
export const USER_HOOKS = { endSessions: 100, invite: 110, releaseAddress: 120 } as const;

/** Mails an invitation link once the new user's row has committed (identity's routes plug the mailer in). */
export interface InvitationMailer {
  send(user: { id: string; email: string; name: string; role: string; companyId: string | null }, token: string): void;
}

/** Every module's service, built once for the app (routes, the seed and tests use these). */
export interface Modules {
  carts: CartsService;
  orders: OrdersService;
  payments: PaymentsService;
  identity: IdentityService;
  receivables: ReceivablesService;
  invitations: { mailer: InvitationMailer | null };
  /** The order mail (orders' routes plug it in with the app's e-mail driver). */
  orderMail: { mailer: OrderMailService | null };
  sales: SalesReportService;
  production: ProductionService;
  delivery: DeliveryService;
  /** Places delivery addresses on the map (null: GEOCODER=off); delivery's routes start and stop it. */
  addressPlacing: AddressPlacing | null;
}

/**
 * The app's composition (style habit 13): builds each module's service once and attaches the modules'
 * rules to the resources as ordered, named hooks. buildApp calls it before any route is registered, so
 * the seed and the tests get the same rules as the API without depending on a route file.
 */
export function composeModules(ctx: AppContext, resources: ResourceRegistry, log: FastifyBaseLogger): Modules {
  const carts = new CartsService(ctx);
  const payments = new PaymentsService(ctx, resources);
  const orders = new OrdersService(ctx, resources, carts, payments);
  const identity = new IdentityService(ctx, resources);
  const receivables = new ReceivablesService(ctx, resources);
  const sales = new SalesReportService(ctx);
  const production = new ProductionService(ctx);
  const geocoder = createGeocoder(ctx.config.geocoding);
  const addressPlacing = geocoder ? new AddressPlacing(ctx, resources, geocoder, log) : null;
  const delivery = new DeliveryService(ctx, resources, addressPlacing);

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
  const orderMail: Modules['orderMail'] = { mailer: null };
  resources.hooksOf('orders').afterWrite.add(
    'orders:mail',
    orderMailHook(() => orderMail.mailer),
    { order: ORDER_HOOKS.mail },
  );
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
  const invitations: Modules['invitations'] = { mailer: null };
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
      onCommit(tx, () => invitations.mailer?.send(user, token));
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
    receivables,
    invitations,
    orderMail,
    sales,
    production,
    delivery,
    addressPlacing,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Each module's service, built once (modules/compose.ts). */
    modules: Modules;
  }
}
