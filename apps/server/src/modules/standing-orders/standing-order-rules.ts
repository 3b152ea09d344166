import { and, eq } from 'drizzle-orm';
import { dayInZone } from '@hornada/domain';
import { b2bClients, type standingOrders } from '../../db/schema';
import { validationError } from '../../lib/errors';
import type { BeforeWrite } from '../../resources/definition';
import type { OrderRules } from '../orders';

type StandingRow = typeof standingOrders.$inferSelect;

/**
 * What every write to a standing order must leave (docs/design.md §3): a standing order that can order. `startsOn`
 * left out is the day it is made, in the bakery's time zone; `window` left out (or cleared) is the bakery's
 * first window when it has windows, since the job opens an order in a window and found none (the standing
 * order was saved and never ordered). A window the bakery does not have, or any window at a bakery without
 * windows, is refused naming `window`; an end before the start, naming `endsOn`; a delivery for a client
 * without an address, or a pickup at a bakery without pickup, naming `fulfillment` (the order rules would
 * refuse every day's order).
 * Added to the standingOrders resource's before-write hooks where the app is composed (modules/compose.ts).
 */
export function standingOrderRules(rules: OrderRules): BeforeWrite<StandingRow> {
  return async (ctx, tx, _actor, current, data, companyId) => {
    const s = await rules.settingsOf(tx, companyId);
    const out = { ...data };
    if (!current && out.startsOn === undefined) out.startsOn = dayInZone(ctx.clock.now(), s.timeZone);

    const startsOn = (out.startsOn ?? current?.startsOn) as string;
    const endsOn = (out.endsOn !== undefined ? out.endsOn : (current?.endsOn ?? null)) as string | null;
    if (endsOn !== null && endsOn < startsOn) {
      throw validationError([{ path: 'endsOn', message: `Must be on or after startsOn (${startsOn})` }]);
    }

    const sent = out.window !== undefined;
    const window = (sent ? out.window : (current?.window ?? null)) as string | null;
    const first = s.deliveryWindows[0];
    if (window === null) {
      if (first) out.window = first.id;
    } else if ((sent || !current) && !s.deliveryWindows.some((w) => w.id === window)) {
      throw validationError([
        {
          path: 'window',
          message: first
            ? `Not a delivery window of this bakery (its windows: ${s.deliveryWindows.map((w) => w.id).join(', ')})`
            : 'This bakery has no delivery windows: leave it empty',
        },
      ]);
    }

    const fulfillment = (out.fulfillment ?? current?.fulfillment) as string;
    if (fulfillment === 'pickup' && !s.pickupEnabled) {
      throw validationError([{ path: 'fulfillment', message: 'This bakery does not offer pickup' }]);
    }
    if (fulfillment === 'delivery' && (!current || out.fulfillment !== undefined || out.b2bClientId !== undefined)) {
      const clientId = (out.b2bClientId ?? current?.b2bClientId) as string;
      const [client] = await tx
        .select({ address: b2bClients.address })
        .from(b2bClients)
        .where(and(eq(b2bClients.id, clientId), eq(b2bClients.companyId, companyId)));
      // An unknown client is the references' 400 (b2bClientId); here only one without an address.
      if (client && !client.address) {
        throw validationError([
          {
            path: 'fulfillment',
            message: "The client has no address to deliver to: choose pickup, or add the client's address",
          },
        ]);
      }
    }
    return out;
  };
}
