import { and, eq, inArray, isNull } from 'drizzle-orm';
import {
  addDays,
  canMovePayment,
  dayInZone,
  ROLE,
  statusMoves,
  wallTimeInZone,
  type HistoryEntry,
  type OrderPaymentMethod,
  type OrderStatus,
  type PaymentStatus,
} from '@hornada/domain';
import { b2bClients, products, users } from '../db/schema';
import type { Clock } from '../lib/clock';
import { OrderRules, type Actor, type NewOrder } from '../modules/orders';
import { gatewayActor, guestActor, historyBy, systemActor } from '../resources/actor';
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

/**
 * About 200 demo orders (docs/design.md §7) over the past 30 days and the next 3, in every status and
 * payment state, web, staff and B2B: each priced and numbered by the orders module's rules as if
 * placed a day or two before its day, walked along the status machine with its history, and written
 * through the orders service (the one door). Runs in the seed's transaction, after the accounts.
 */
export async function seedOrders(opts: {
  scope: WriteScope;
  resources: ResourceRegistry;
  clock: Clock;
  companyId: string;
}): Promise<number> {
  const { scope, resources, clock, companyId } = opts;
  const { tx } = scope;
  const rules = new OrderRules(clock);
  const settings = await rules.settingsOf(tx, companyId);
  const tz = settings.timeZone;
  const rnd = random(20261124);
  const catalogue = await tx
    .select({ id: products.id, price: products.price })
    .from(products)
    .where(and(eq(products.companyId, companyId), eq(products.active, true), isNull(products.deletedAt)));
  const clients = await tx
    .select({
      id: b2bClients.id,
      name: b2bClients.businessName,
      contact: b2bClients.contactName,
      phone: b2bClients.phone,
    })
    .from(b2bClients)
    .where(eq(b2bClients.companyId, companyId));
  const people = await tx
    .select({ id: users.id, email: users.email, name: users.name, role: users.role })
    .from(users)
    .where(
      and(
        eq(users.companyId, companyId),
        inArray(users.email, [
          'cliente@hornada.test',
          'domicilios@hornada.test',
          'staff@hornada.test',
          'produccion@hornada.test',
        ]),
      ),
    );
  const byEmail = (e: string) => people.find((p) => p.email === e);
  const customer = byEmail('cliente@hornada.test');
  const driver = byEmail('domicilios@hornada.test');
  // The demo's history names the demo accounts that would have made each move (the seed itself without them).
  const named = (p: (typeof people)[number] | undefined): Actor | null =>
    p ? { uid: p.id, name: p.name, role: p.role } : null;
  const staff: Actor = named(byEmail('staff@hornada.test')) ?? historyBy(systemActor('seed'));
  const bakerActor: Actor = named(byEmail('produccion@hornada.test')) ?? staff;
  const driverActor: Actor = named(driver) ?? staff;

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

  const service = resources.get('orders');
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
    const mine = channel === 'web' && customer && rnd.next() < 0.15;
    const name = client ? (client.contact ?? client.name) : mine ? customer!.name : rnd.pick(NAMES);
    const methods: OrderPaymentMethod[] = client
      ? ['credit']
      : channel === 'web'
        ? ['cash', 'transfer', 'online']
        : ['cash', 'transfer'];
    const paymentMethod = rnd.pick(methods);
    const input: NewOrder = {
      items: [...items].map(([productId, quantity]) => ({ productId, quantity, notes: null })),
      contact: {
        name,
        phone: client?.phone ?? `+57 3${rnd.int(10, 22)} ${rnd.int(100, 999)} ${rnd.int(1000, 9999)}`,
        email: null,
      },
      fulfillment: pickup ? 'pickup' : 'delivery',
      address: pickup
        ? null
        : ((line) => ({
            label: null,
            line,
            neighborhood: rnd.pick(HOODS),
            city: 'Bogotá',
            notes: null,
            ...STREET_POINTS[line]!,
          }))(rnd.pick(STREETS)),
      dueDate: plan.day,
      window: plan.window,
      // Online payments are web only, and the rules take cash and transfer from the web: set below.
      paymentMethod: paymentMethod === 'online' ? 'cash' : paymentMethod,
      notes: rnd.next() < 0.1 ? 'Por favor timbrar dos veces' : null,
      customerId: mine ? customer!.id : null,
      b2bClientId: client?.id ?? null,
    };
    const placedBy: Actor = channel === 'web' ? (mine ? named(customer)! : historyBy(guestActor(name))) : staff;
    const values = await rules.prepareNew(tx, placedBy, companyId, input, channel, plan.placedAt);
    values.paymentMethod = paymentMethod;
    values.number = await rules.nextNumber(tx, companyId);

    const target = targetFor(plan.day, today, paymentMethod, !!pickup, rnd, turns);
    const history = values.history as HistoryEntry[];
    const dueStart = (values.dueDate as Date).getTime();
    let at = plan.placedAt.getTime();
    const step = (by: Actor, field: string, from: unknown, to: unknown, note?: string) => {
      at = Math.min(Math.max(at + rnd.int(20, 240) * 60_000, at), now.getTime());
      history.push({ at: new Date(at).toISOString(), by, field, from, to, ...(note ? { note } : {}) });
    };
    // Online: at the gateway when placed.
    let payment: PaymentStatus = 'unpaid';
    const pay = (to: PaymentStatus, by: Actor, role: Parameters<typeof canMovePayment>[0]) => {
      if (!canMovePayment(role, paymentMethod, payment, to)) throw new Error(`seed: payment ${payment} → ${to}`);
      step(by, 'paymentStatus', payment, to);
      payment = to;
    };
    const gateway: Actor = historyBy(gatewayActor('sandbox'));
    if (paymentMethod === 'online') {
      pay('pending', gateway, 'gateway');
      if (target.payment === 'failed') pay('failed', gateway, 'gateway');
      else if (target.payment !== 'pending') pay('paid', gateway, 'gateway');
    }
    // Along the status machine to the target, each move by the role that makes it.
    const path = pathTo(target.status, pickup ? 'pickup' : 'delivery');
    let status: OrderStatus = 'pending';
    let completedAt: Date | null = null;
    for (const to of path) {
      const by =
        to === 'in_production' || to === 'ready'
          ? bakerActor
          : to === 'out_for_delivery' || (to === 'delivered' && !pickup)
            ? driverActor
            : staff;
      if (to === 'in_production') at = Math.max(at, dueStart - 6 * 3_600_000);
      step(by, 'status', status, to);
      status = to;
      if (to === 'delivered') completedAt = new Date(at);
    }
    let cashCollected: number | null = null;
    if (paymentMethod !== 'online' && (target.payment === 'paid' || target.payment === 'refunded')) {
      if (paymentMethod === 'cash' && status === 'delivered' && !pickup) {
        cashCollected = values.total as number;
        step(driverActor, 'cashCollected', null, cashCollected);
        history.push({
          ...history.at(-1)!,
          field: 'paymentStatus',
          from: 'unpaid',
          to: 'paid',
          note: 'cash-collected',
        });
        payment = 'paid';
      } else pay('paid', staff, ROLE.companyStaff);
    }
    // A refund carries its reason, logged just before it as the rules do (picked without the random
    // stream, so the rest of the demo stays as it was).
    const refundReason = target.payment === 'refunded' ? REFUND_REASONS[plan.n % REFUND_REASONS.length]! : null;
    if (refundReason) {
      history.push({ at: new Date(at).toISOString(), by: staff, field: 'refundReason', from: null, to: refundReason });
      pay('refunded', staff, ROLE.companyAdmin);
    }
    const cancelled = status === 'cancelled';
    // Through the orders service as the seed: its line imports the order as the rules made it above.
    await service.create(
      systemActor('seed'),
      companyId,
      {
        ...values,
        status,
        paymentStatus: payment,
        payment:
          paymentMethod === 'online'
            ? {
                gateway: 'sandbox',
                reference: `HOR-${values.number}`,
                transactionId: (payment as PaymentStatus) === 'pending' ? null : `sbx_${plan.n}`,
              }
            : null,
        deliveryAssistantId:
          !pickup && driver && ['ready', 'out_for_delivery', 'delivered'].includes(status) ? driver.id : null,
        routePosition: !pickup && status !== 'cancelled' && plan.day === today ? rnd.int(1, 12) : null,
        producedQuantities: ['ready', 'out_for_delivery', 'delivered'].includes(status)
          ? Object.fromEntries(input.items.map((i) => [i.productId, i.quantity]))
          : {},
        cashCollected,
        completedAt,
        cancelReason: cancelled ? rnd.pick(CANCEL_REASONS) : null,
        refundReason,
        history,
        createdAt: plan.placedAt,
        updatedAt: new Date(at),
      },
      scope,
    );
    written++;
  }
  return written;
}

/** The statuses from pending to `status` along the machine (cancelled from pending or confirmed). */
function pathTo(status: OrderStatus, fulfillment: 'delivery' | 'pickup'): OrderStatus[] {
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
