import {
  dayInZone,
  type Fulfillment,
  type HistoryEntry,
  type OrderInput,
  type OrderPaymentMethod,
  type PaymentActor,
  type Role,
  type SettingsInput,
} from '@hornada/domain';
import type { DbOrTx } from '../../../db';
import type { orders } from '../../../db/schema';
import { historyBy, type Actor as WriteActor } from '../../../resources/actor';
import { sameValue } from './problems';
import { dayOf } from './slots';

/** An order as stored (the table's row: dates are Dates). */
export type OrderRow = typeof orders.$inferSelect;

/** The fields of an order's content: they change only while the order is editable (EDITABLE_STATUSES). */
export const CONTENT_FIELDS = [
  'dueDate',
  'window',
  'items',
  'fulfillment',
  'address',
  'b2bClientId',
  'paymentMethod',
] as const;
export type ContentField = (typeof CONTENT_FIELDS)[number];

/** One update as its steps read it: the row before, the fields sent, and what the steps before decided. */
export interface OrderUpdate {
  readonly db: DbOrTx;
  /** Who writes; `role` its role when a user (status moves), `payer` who moves the payment. */
  readonly who: WriteActor;
  readonly role: Role | null;
  readonly payer: PaymentActor | null;
  readonly companyId: string;
  readonly settings: SettingsInput;
  /** The write's instant: every entry and stamp of this write carries it. */
  readonly now: Date;
  readonly current: OrderRow;
  readonly data: Partial<OrderInput>;
  /** What is stored so far: the fields sent, as the steps before this one dropped, reshaped and added to them. */
  readonly out: Readonly<Record<string, unknown>>;
  /** The day sent (in the company's zone), or null; the order's day before the write. */
  readonly day: string | null;
  readonly currentDay: string;
  readonly dayChanged: boolean;
  readonly itemsChanged: boolean;
  /** The fulfilment after this write. */
  readonly fulfillment: Fulfillment;
  /** The content fields this write changes (the first one names a locked order's refusal). */
  readonly editing: readonly ContentField[];
  /** Only the address's point changes (a pin): allowed while the stop is ahead (ROUTABLE_STATUSES). */
  readonly pinOnly: boolean;
  /** The payment method after the steps so far (the payment-method and payment steps may change it). */
  readonly method: OrderPaymentMethod;
  /** The field was sent with a value other than the order's. */
  changed(k: keyof OrderInput): boolean;
}

/** A history entry a step adds, before the write's instant and actor are put on it. */
export interface Logged {
  field: string;
  from: unknown;
  to: unknown;
  note?: string;
  names?: HistoryEntry['names'];
}

/** What a step decides: fields dropped from what is stored, then fields set, entries for history, a new method. */
export interface StepResult {
  drop?: readonly string[];
  set?: Record<string, unknown>;
  log?: readonly Logged[];
  method?: OrderPaymentMethod;
}

/** One rule of an update: reads the update, returns what it decides, or throws the problem (an AppError). */
export type Step = (u: OrderUpdate) => StepResult | void | Promise<StepResult | void>;

/** An entry, in the shape steps return. */
export const logged = (
  field: string,
  from: unknown,
  to: unknown,
  note?: string,
  names?: HistoryEntry['names'],
): Logged => ({ field, from, to, ...(note ? { note } : {}), ...(names ? { names } : {}) });

/** The update the steps start from. */
export function startUpdate(
  db: DbOrTx,
  who: WriteActor,
  companyId: string,
  current: OrderRow,
  data: Partial<OrderInput>,
  settings: SettingsInput,
  now: Date,
): OrderUpdate {
  // Status moves are a user's (by its role); payment moves a user's or a gateway's (docs/design.md §5).
  const role = who.kind === 'user' ? who.role : null;
  const changed = (k: keyof OrderInput) =>
    data[k] !== undefined &&
    JSON.stringify(data[k] ?? null) !== JSON.stringify((current as Record<string, unknown>)[k] ?? null);
  const day = data.dueDate !== undefined ? dayOf(data.dueDate, settings.timeZone) : null;
  const currentDay = dayInZone(current.dueDate, settings.timeZone);
  const dayChanged = day !== null && day !== currentDay;
  const itemsChanged =
    data.items !== undefined &&
    JSON.stringify(data.items.map((i) => [i.productId, i.quantity, i.notes ?? null])) !==
      JSON.stringify(current.items.map((i) => [i.productId, i.quantity, i.notes ?? null]));
  // Only the address's point moves (its text, label and notes as they are): a pin, allowed while the
  // stop is still ahead, after the content is locked too (a route is ordered on the day).
  const pinOnly =
    changed('address') &&
    !!data.address &&
    !!current.address &&
    sameValue({ ...current.address, lat: null, lng: null }, { ...data.address, lat: null, lng: null });
  const content: Record<ContentField, boolean> = {
    items: itemsChanged,
    fulfillment: changed('fulfillment'),
    address: changed('address') && !pinOnly,
    dueDate: dayChanged,
    window: changed('window'),
    b2bClientId: changed('b2bClientId'),
    paymentMethod: changed('paymentMethod'),
  };
  return {
    db,
    who,
    role,
    payer: who.kind === 'gateway' ? 'gateway' : role,
    companyId,
    settings,
    now,
    current,
    data,
    out: { ...data },
    day,
    currentDay,
    dayChanged,
    itemsChanged,
    fulfillment: data.fulfillment ?? current.fulfillment,
    editing: CONTENT_FIELDS.filter((f) => content[f]),
    pinOnly,
    method: current.paymentMethod,
    changed,
  };
}

/**
 * Runs the steps in order, each reading what the ones before decided; returns what is stored, with `history`
 * grown by every entry in the order the steps made them.
 */
export async function runSteps(
  start: OrderUpdate,
  steps: readonly { name: string; run: Step }[],
): Promise<Record<string, unknown>> {
  const by = historyBy(start.who);
  const at = start.now.toISOString();
  const history: HistoryEntry[] = [...(start.current.history ?? [])];
  let u = start;
  for (const step of steps) {
    const r = await step.run(u);
    if (!r) continue;
    const out: Record<string, unknown> = { ...u.out };
    for (const field of r.drop ?? []) delete out[field];
    Object.assign(out, r.set);
    for (const e of r.log ?? []) history.push({ at, by, ...e });
    u = { ...u, out, method: r.method ?? u.method };
  }
  return { ...u.out, history };
}
