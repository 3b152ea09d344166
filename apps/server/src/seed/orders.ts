import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  addDays,
  dayInZone,
  statusMoves,
  wallTimeInZone,
  type Fulfillment,
  type OrderPaymentMethod,
  type OrderStatus,
  type PaymentStatus,
} from '@hornada/domain';
import { ChangeSet } from '../db/change-log';
import { b2bClients, products, users } from '../db/schema';
import { settableClock, type Clock } from '../lib/clock';
import { OrderRules, type OrderRow } from '../modules/orders';
import { gatewayActor, guestActor, systemActor, type Actor, type UserActor } from '../resources/actor';
import type { ResourceRegistry } from '../resources/registry';
import type { WriteScope } from '../resources/service';

/** A small deterministic generator (mulberry32): the same demo every time. */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)]!;
  return { next, int, pick };
}

const NAMES = [
  'Camila Rodríguez',
  'Andrés Felipe Gómez',
  'Luisa Fernanda Martínez',
  'Santiago López',
  'Valentina Castro',
  'Juan David Herrera',
  'María José Vargas',
  'Carlos Alberto Ríos',
  'Daniela Moreno',
  'Sebastián Torres',
  'Natalia Jiménez',
  'Felipe Ramírez',
  'Laura Sofía Díaz',
  'Mateo Sánchez',
  'Paula Andrea Ruiz',
];
const STREETS = ['Calle 45 # 13-20', 'Carrera 7 # 60-12', 'Calle 53 # 21-40', 'Carrera 15 # 85-33', 'Calle 26 # 19-08'];
/** Where each street address lies in Bogotá, so the demo's routes mean something. */
const STREET_POINTS: Record<string, { lat: number; lng: number }> = {
  'Calle 45 # 13-20': { lat: 4.6331, lng: -74.0678 },
  'Carrera 7 # 60-12': { lat: 4.6458, lng: -74.0613 },
  'Calle 53 # 21-40': { lat: 4.6425, lng: -74.0721 },
  'Carrera 15 # 85-33': { lat: 4.6705, lng: -74.0551 },
  'Calle 26 # 19-08': { lat: 4.6151, lng: -74.0742 },
};
const HOODS = ['Teusaquillo', 'Chapinero', 'Galerías', 'Chicó', 'La Soledad', 'Palermo'];
const CANCEL_REASONS = ['El cliente ya no lo necesita', 'Dirección fuera de cobertura', 'Pedido duplicado'];
const REFUND_REASONS = ['Producto en mal estado', 'Pedido cancelado después del pago', 'Cobro duplicado'];

type Target = { status: OrderStatus; payment: PaymentStatus };

/** One write of an order's replay: when, by whom, and what it sends. */
type Move = { at: Date; by: Actor; data: Record<string, unknown> };

/**
 * About 200 demo orders (docs/design.md §7) over the past 30 days and the next 3, in every status and
 * payment state, web, staff and B2B. Each is placed through the orders service by whoever would have
 * placed it (a guest, the demo customer at checkout, staff) a day or two before its day, and then moved
 * through the same service by whoever would have moved it (the gateway, staff, the baker, the driver, the
 * admin), the clock held at each move's instant: the rules write its price, number, history and times.
 * Nothing leaves the database (the scope is the seed's import: no mail, no stock moved). Runs in the seed's
 * transaction, after the accounts; without the demo accounts there is nobody to place them, and none are.
 */
export async function seedOrders(opts: {
  scope: WriteScope;
  resources: ResourceRegistry;
  clock: Clock;
  companyId: string;
}): Promise<number> {
  const { scope, clock, companyId } = opts;
  const { tx } = scope;
  // The demo is relative to today (the real clock); each write is stamped with the instant it replays.
  const replayClock = settableClock(clock);
  const service = opts.resources.onClock(replayClock).get('orders');
  const settings = await new OrderRules().settingsOf(tx, companyId);
  const tz = settings.timeZone;
  const rnd = random(20261124);
  // In a fixed order: the random stream picks by position, and rows read unordered come back in the order
  // the table's pages happen to hold them, which differs from one run to the next.
  const catalogue = await tx
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(and(eq(products.companyId, companyId), eq(products.active, true), isNull(products.deletedAt)))
    .orderBy(products.sortOrder);
  const clients = await tx
    .select({
      id: b2bClients.id,
      name: b2bClients.businessName,
      contact: b2bClients.contactName,
      phone: b2bClients.phone,
    })
    .from(b2bClients)
    .where(eq(b2bClients.companyId, companyId))
    .orderBy(b2bClients.taxId);
  const people = await tx
    .select({ uid: users.id, email: users.email, name: users.name, role: users.role, companyId: users.companyId })
    .from(users)
    .where(and(eq(users.companyId, companyId), inArray(users.email, Object.values(DEMO_PEOPLE))));
  const person = (email: string): UserActor | null => {
    const p = people.find((x) => x.email === email);
    return p ? { kind: 'user', ...p } : null;
  };
  const customer = person(DEMO_PEOPLE.customer);
  const staff = person(DEMO_PEOPLE.staff);
  const admin = person(DEMO_PEOPLE.admin);
  const baker = person(DEMO_PEOPLE.baker);
  const driver = person(DEMO_PEOPLE.driver);
  if (!customer || !staff || !admin || !baker || !driver) return 0;

  const now = clock.now();
  const today = dayInZone(now, tz);
  const windows = settings.deliveryWindows.map((w) => w.id);
  const plans: { day: string; placedAt: Date; window: string | null; n: number }[] = [];
  let n = 0;
  for (let offset = -30; offset <= 3; offset++) {
    const day = addDays(today, offset);
    if (!settings.deliveryDays.includes(new Date(`${day}T12:00:00Z`).getUTCDay())) continue;
    const count = offset > 0 ? rnd.int(4, 7) : offset === 0 ? 12 : rnd.int(5, 8);
    for (let i = 0; i < count; i++) {
      const window = windows.length ? rnd.pick(windows) : null;
      const start = settings.deliveryWindows.find((w) => w.id === window)?.start ?? '00:00';
      // Placed one to three days ahead, within the lead time, never after now.
      const lead = (settings.orderLeadHours + rnd.int(2, 48)) * 3_600_000;
      const at = new Date(
        Math.min(wallTimeInZone(day, start, tz).getTime() - lead, now.getTime() - rnd.int(1, 600) * 60_000),
      );
      plans.push({ day, placedAt: at, window, n: n++ });
    }
  }
  plans.sort((a, b) => a.placedAt.getTime() - b.placedAt.getTime());

  const turns = { today: 0, online: 0 };
  let written = 0;
  for (const plan of plans) {
    const kind = rnd.next();
    const channel = kind < 0.6 ? 'web' : kind < 0.85 ? 'staff' : 'b2b';
    const client = channel === 'b2b' && clients.length ? rnd.pick(clients) : null;
    const pickup = channel !== 'b2b' && rnd.next() < 0.2;
    const lines = rnd.int(1, 4);
    const items = new Map<string, number>();
    while (items.size < lines) items.set(rnd.pick(catalogue).id, rnd.int(client ? 10 : 1, client ? 40 : 6));
    // A web order reaches the minimum: more of its first line until it does.
    const first = catalogue.find((p) => p.id === [...items.keys()][0])!;
    const subtotal = [...items].reduce((sum, [id, q]) => sum + catalogue.find((p) => p.id === id)!.price * q, 0);
    if (channel === 'web' && subtotal < settings.minimumOrder) {
      items.set(first.id, items.get(first.id)! + Math.ceil((settings.minimumOrder - subtotal) / first.price));
    }
    const mine = channel === 'web' && rnd.next() < 0.15;
    const name = client ? (client.contact ?? client.name) : mine ? customer.name : rnd.pick(NAMES);
    const methods: OrderPaymentMethod[] = client
      ? ['credit']
      : channel === 'web'
        ? ['cash', 'transfer', 'online']
        : ['cash', 'transfer'];
    const paymentMethod = rnd.pick(methods);
    const phone = client?.phone ?? `+57 3${rnd.int(10, 22)} ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`;
    // The street's point is the geocoder's to find (below), as for any address typed without a pin.
    const line = pickup ? null : rnd.pick(STREETS);
    const address = line
      ? { label: null, line, neighborhood: rnd.pick(HOODS), city: 'Bogotá', notes: null, lat: null, lng: null }
      : null;
    const input = {
      items: [...items].map(([productId, quantity]) => ({ productId, quantity, notes: null })),
      contact: { name, phone, email: null },
      fulfillment: pickup ? 'pickup' : 'delivery',
      address,
      dueDate: plan.day,
      window: plan.window,
      paymentMethod,
      notes: rnd.next() < 0.1 ? 'Por favor timbrar dos veces' : null,
      customerId: mine ? customer.uid : null,
      ...(client ? { b2bClientId: client.id } : {}),
    };
    const placedBy: Actor = channel !== 'web' ? staff : mine ? { ...customer, via: 'checkout' } : guestActor(name);
    // Its own writes' changes stay out of the seed's; the order goes to the change log once, as it ends.
    const replay: WriteScope = { tx, changes: new ChangeSet(), importing: 'seed' };
    const write = async (at: Date, by: Actor, data: Record<string, unknown>) => {
      replayClock.set(at);
      return service.update(by, companyId, order.id, data, replay);
    };
    replayClock.set(plan.placedAt);
    let order = await service.create(placedBy, companyId, input, replay);
    if (line) order = await write(plan.placedAt, geocoder, { address: { ...address, ...STREET_POINTS[line]! } });

    const target = targetFor(plan.day, today, paymentMethod, pickup, rnd, turns);
    const moves = planMoves(order, target, { rnd, now, n: plan.n, staff, admin, baker, driver });
    // Drawn after the moves' instants, in the order the demo always drew them.
    const routePosition = line && target.status !== 'cancelled' && plan.day === today ? rnd.int(1, 12) : null;
    const cancelReason = target.status === 'cancelled' ? rnd.pick(CANCEL_REASONS) : null;
    // The day's route is the office's, set as the order comes in.
    if (routePosition !== null) order = await write(plan.placedAt, staff, { routePosition });
    for (const move of moves) {
      const data = move.data.status === 'cancelled' ? { ...move.data, cancelReason } : move.data;
      order = await write(move.at, move.by, data);
    }
    replayClock.set(null);
    scope.changes.add('orders', 'added', order);
    written++;
  }
  return written;
}

/** The demo accounts that place and move the demo's orders. */
const DEMO_PEOPLE = {
  customer: 'cliente@hornada.test',
  staff: 'staff@hornada.test',
  admin: 'admin@hornada.test',
  baker: 'produccion@hornada.test',
  driver: 'domicilios@hornada.test',
} as const;

const geocoder = systemActor('geocoding');
const GATEWAY = 'sandbox';
const gateway = gatewayActor(GATEWAY);

/**
 * The writes that take a new order to `target`, each by whoever makes it and at its instant: the gateway's
 * attempt (online), the status machine from pending with the driver assigned on the way, the payment (cash
 * collected at the door, else marked paid by staff), the admin's refund with its reason.
 */
function planMoves(
  order: OrderRow,
  target: Target,
  who: {
    rnd: ReturnType<typeof random>;
    now: Date;
    n: number;
    staff: UserActor;
    admin: UserActor;
    baker: UserActor;
    driver: UserActor;
  },
): Move[] {
  const { rnd, now, staff, admin, baker, driver } = who;
  const pickup = order.fulfillment === 'pickup';
  const method = order.paymentMethod;
  const moves: Move[] = [];
  let at = order.createdAt.getTime();
  const next = () => {
    at = Math.min(Math.max(at + rnd.int(20, 240) * 60_000, at), now.getTime());
    return new Date(at);
  };
  let status: OrderStatus = 'pending';
  if (method === 'online') {
    const payment = (transactionId: string | null) => ({
      gateway: GATEWAY,
      reference: `HOR-${order.number}`,
      transactionId,
    });
    moves.push({ at: next(), by: gateway, data: { paymentStatus: 'pending', payment: payment(null) } });
    if (target.payment !== 'pending') {
      const to = target.payment === 'failed' ? 'failed' : 'paid';
      moves.push({ at: next(), by: gateway, data: { paymentStatus: to, payment: payment(`sbx_${who.n}`) } });
      // The gateway's payment confirms a web order (payments' own step).
      if (to === 'paid') status = 'confirmed';
    }
  }
  // Along the status machine to the target, each move by the role that makes it. An order that will go out
  // gets its driver from the office as it is confirmed (or once ready, when its payment confirmed it).
  const assign = !pickup && ['ready', 'out_for_delivery', 'delivered'].includes(target.status);
  let assigned = false;
  let cashAt: Move | null = null;
  for (const to of pathTo(target.status, order.fulfillment)) {
    if (to === 'in_production') at = Math.max(at, order.dueDate.getTime() - 6 * 3_600_000);
    const when = next();
    if (to === status) continue;
    status = to;
    const move: Move =
      to === 'in_production'
        ? { at: when, by: baker, data: { status: to } }
        : to === 'ready'
          ? { at: when, by: baker, data: { status: to, producedQuantities: producedOf(order) } }
          : to === 'out_for_delivery' || (to === 'delivered' && !pickup)
            ? { at: when, by: driver, data: { status: to } }
            : { at: when, by: staff, data: { status: to } };
    moves.push(move);
    if (assign && !assigned && (to === 'confirmed' || to === 'ready')) {
      if (to === 'confirmed') move.data = { ...move.data, deliveryAssistantId: driver.uid };
      else moves.push({ at: when, by: staff, data: { deliveryAssistantId: driver.uid } });
      assigned = true;
    }
    if (to === 'delivered' && !pickup) cashAt = move;
  }
  if (method !== 'online' && (target.payment === 'paid' || target.payment === 'refunded')) {
    // Drawn either way, so the stream stays as it was: cash is the driver's at the door, with the delivery;
    // anything else staff marks paid.
    const when = next();
    if (method === 'cash' && cashAt) cashAt.data = { ...cashAt.data, cashCollected: order.total };
    else moves.push({ at: when, by: staff, data: { paymentStatus: 'paid' } });
  }
  if (target.payment === 'refunded') {
    // The reason is picked without the random stream, so the rest of the demo stays as it was.
    const refundReason = REFUND_REASONS[who.n % REFUND_REASONS.length]!;
    moves.push({ at: next(), by: admin, data: { paymentStatus: 'refunded', refundReason } });
  }
  return moves;
}

/** Every line made in full. */
const producedOf = (order: OrderRow) => Object.fromEntries(order.items.map((i) => [i.productId, i.quantity]));

/** The statuses from pending to `status` along the machine (cancelled from pending or confirmed). */
function pathTo(status: OrderStatus, fulfillment: Fulfillment): OrderStatus[] {
  if (status === 'pending') return [];
  if (status === 'cancelled') return ['cancelled'];
  const moves = statusMoves(fulfillment).filter((m) => m.to !== 'cancelled');
  const out: OrderStatus[] = [];
  let at: OrderStatus = 'pending';
  while (at !== status) {
    const next = moves.find((m) => m.from === at);
    if (!next) throw new Error(`seed: no way to ${status}`);
    out.push(next.to);
    at = next.to;
  }
  return out;
}

/** Where an order of this day stands now: past days delivered (some cancelled), today in every step. */
function targetFor(
  day: string,
  today: string,
  method: OrderPaymentMethod,
  pickup: boolean,
  rnd: ReturnType<typeof random>,
  turns: { today: number; online: number },
): Target {
  const r = rnd.next();
  let status: OrderStatus;
  if (day < today) status = r < 0.9 ? 'delivered' : 'cancelled';
  else if (day === today) {
    const today: OrderStatus[] = pickup
      ? ['pending', 'confirmed', 'in_production', 'ready', 'delivered']
      : ['pending', 'confirmed', 'in_production', 'ready', 'out_for_delivery', 'delivered', 'cancelled'];
    // In turn, so that today always shows every step.
    status = today[turns.today++ % today.length]!;
  } else status = r < 0.45 ? 'pending' : r < 0.85 ? 'confirmed' : r < 0.95 ? 'in_production' : 'cancelled';
  const p = rnd.next();
  let payment: PaymentStatus = 'unpaid';
  if (method === 'online') {
    // At the gateway or declined: the order waits (or was cancelled); paid: it is confirmed (docs/design.md §5).
    if (day >= today) {
      const states: PaymentStatus[] = ['pending', 'failed', 'paid', 'paid'];
      const state = states[turns.online++ % states.length]!;
      if (state !== 'paid') return { status: 'pending', payment: state };
    }
    if (day < today && p < 0.08) return { status: 'cancelled', payment: 'failed' };
    payment = status === 'cancelled' || p > 0.95 ? 'refunded' : 'paid';
    if (status === 'pending') status = 'confirmed';
  } else if (status === 'delivered') {
    // Most are settled; credit is paid after its terms, some transfers are still to confirm.
    payment =
      method === 'credit'
        ? day < today && p < 0.6
          ? 'paid'
          : 'unpaid'
        : p < 0.85
          ? 'paid'
          : p < 0.9
            ? 'refunded'
            : 'unpaid';
  } else if (status !== 'cancelled' && method === 'transfer' && p < 0.4) payment = 'paid';
  if (status === 'cancelled' && payment === 'paid') payment = method === 'online' ? 'refunded' : 'unpaid';
  return { status, payment };
}
