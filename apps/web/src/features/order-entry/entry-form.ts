import { CART_MAX_LINES, CART_MAX_QUANTITY } from '@hornada/domain/constants';
import { OrderInput, type OrderPaymentMethod } from '@hornada/domain/schemas/orders';
import type { FieldErrors, Resolver } from 'react-hook-form';
import { optionalText } from '../../components/forms/form-values';
import { domainResolver } from '../../lib/form-rules';
import type { OrderWrite } from './api';

/** Who the order is for: a customer account, a B2B client, or someone with only a name and phone. */
export type Party = 'customer' | 'b2b' | 'walkin';

export interface LineForm {
  productId: string;
  quantity: string;
  notes: string;
}

/** What the form holds (inputs give strings); `toInput` makes the body the API takes. */
export interface EntryForm {
  party: Party;
  customerId: string;
  b2bClientId: string;
  contact: { name: string; phone: string; email: string };
  items: LineForm[];
  fulfillment: 'delivery' | 'pickup';
  /** `lat`/`lng`: the map pin as typed; both empty leaves the address without coordinates. */
  address: { line: string; neighborhood: string; city: string; notes: string; lat: string; lng: string };
  dueDate: string;
  window: string;
  paymentMethod: OrderPaymentMethod | '';
  notes: string;
}

export const EMPTY_FORM: EntryForm = {
  party: 'customer',
  customerId: '',
  b2bClientId: '',
  contact: { name: '', phone: '', email: '' },
  items: [],
  fulfillment: 'delivery',
  address: { line: '', neighborhood: '', city: '', notes: '', lat: '', lng: '' },
  dueDate: '',
  window: '',
  paymentMethod: '',
  notes: '',
};

/** A typed coordinate within ±`max` (a comma taken as the decimal point), else NaN; empty is null. */
export function coordinateOf(text: string, max: number): number | null {
  const t = text.trim().replace(',', '.');
  if (!t) return null;
  const n = /^-?\d{1,3}(\.\d+)?$/.test(t) ? Number(t) : Number.NaN;
  return Math.abs(n) <= max ? n : Number.NaN;
}

/** A typed quantity: a whole number, else NaN (the check below says so under the line). */
export const quantityOf = (text: string): number => (/^\s*\d+\s*$/.test(text) ? Number(text) : Number.NaN);

/** The `window` value of a bakery without windows (it delivers all day): none. */
export const ALL_DAY_WINDOW = '';

export function toInput(form: EntryForm): OrderWrite {
  const a = form.address;
  return {
    customerId: form.party === 'customer' ? form.customerId || null : null,
    b2bClientId: form.party === 'b2b' ? form.b2bClientId || null : null,
    contact: {
      name: form.contact.name.trim(),
      phone: form.contact.phone.trim(),
      email: optionalText(form.contact.email),
    },
    items: form.items.map((l) => ({
      productId: l.productId,
      quantity: quantityOf(l.quantity),
      notes: optionalText(l.notes),
    })),
    fulfillment: form.fulfillment,
    address:
      form.fulfillment === 'delivery'
        ? {
            line: a.line.trim(),
            neighborhood: optionalText(a.neighborhood),
            city: optionalText(a.city),
            notes: optionalText(a.notes),
            ...pinOf(a),
          }
        : null,
    dueDate: form.dueDate,
    window: form.window === ALL_DAY_WINDOW ? null : form.window,
    paymentMethod: form.paymentMethod === '' ? 'cash' : form.paymentMethod,
    notes: optionalText(form.notes),
  };
}

/** The pin when both coordinates are valid, else none (the checks below say what is wrong). */
export function pinOf(a: EntryForm['address']): { lat: number | null; lng: number | null } {
  const lat = coordinateOf(a.lat, 90);
  const lng = coordinateOf(a.lng, 180);
  return lat !== null && lng !== null && !Number.isNaN(lat) && !Number.isNaN(lng)
    ? { lat, lng }
    : { lat: null, lng: null };
}

type Flat = Record<string, string>;

/** The checks staff read first, in the words of this screen; the shared schema backs them up. */
function screenProblems(form: EntryForm, hasWindows: boolean): Flat {
  const e: Flat = {};
  if (form.party === 'customer' && !form.customerId) e.customerId = 'Busca y elige un cliente.';
  if (form.party === 'b2b' && !form.b2bClientId) e.b2bClientId = 'Elige un cliente B2B.';
  if (!form.contact.name.trim()) e['contact.name'] = 'Escribe el nombre de contacto.';
  if (!form.contact.phone.trim()) e['contact.phone'] = 'Escribe un teléfono de contacto.';
  if (form.items.length === 0) e.items = 'Agrega al menos un producto.';
  if (form.items.length > CART_MAX_LINES) e.items = `Un pedido tiene como máximo ${CART_MAX_LINES} productos.`;
  form.items.forEach((l, i) => {
    const q = quantityOf(l.quantity);
    if (!(q >= 1 && q <= CART_MAX_QUANTITY)) {
      e[`items.${i}.quantity`] = `Escribe una cantidad entera entre 1 y ${CART_MAX_QUANTITY}.`;
    }
  });
  if (form.fulfillment === 'delivery' && !form.address.line.trim())
    e['address.line'] = 'Escribe la dirección de entrega.';
  if (form.fulfillment === 'delivery') {
    const lat = coordinateOf(form.address.lat, 90);
    const lng = coordinateOf(form.address.lng, 180);
    if (Number.isNaN(lat)) e['address.lat'] = 'Escribe una latitud entre -90 y 90, por ejemplo 4.6278.';
    if (Number.isNaN(lng)) e['address.lng'] = 'Escribe una longitud entre -180 y 180, por ejemplo -74.0712.';
    if ((lat === null) !== (lng === null))
      e[lat === null ? 'address.lat' : 'address.lng'] = 'Escribe la latitud y la longitud, o deja las dos vacías.';
  }
  if (!form.dueDate) e.dueDate = 'Elige el día.';
  else if (hasWindows && !form.window) e.window = 'Elige un horario.';
  if (!form.paymentMethod) e.paymentMethod = 'Elige el medio de pago.';
  return e;
}

/** `{"a.0.b": message}` → react-hook-form's nested errors. */
function nest(flat: Flat): FieldErrors<EntryForm> {
  const root: Record<string, unknown> = {};
  for (const [path, message] of Object.entries(flat)) {
    const keys = path.split('.');
    let node = root;
    keys.forEach((key, i) => {
      if (i === keys.length - 1) {
        node[key] = { ...(node[key] as object | undefined), type: 'validate', message };
        return;
      }
      node[key] ??= /^\d+$/.test(keys[i + 1] ?? '') ? [] : {};
      node = node[key] as Record<string, unknown>;
    });
  }
  return root as FieldErrors<EntryForm>;
}

function flatten(errors: unknown, prefix = '', out: Flat = {}): Flat {
  if (!errors || typeof errors !== 'object') return out;
  const e = errors as Record<string, unknown>;
  if (typeof e.message === 'string' && typeof e.type === 'string') out[prefix] = e.message;
  for (const [k, v] of Object.entries(e)) {
    if (k === 'message' || k === 'type' || k === 'ref') continue;
    flatten(v, prefix ? `${prefix}.${k}` : k, out);
  }
  return out;
}

const schemaResolver = domainResolver<EntryForm>(OrderInput, toInput);

/** The screen's checks, then the shared schema's (in Spanish) for anything they did not cover. */
export function entryResolver(hasWindows: boolean): Resolver<EntryForm> {
  return async (values, context, options) => {
    const own = screenProblems(values, hasWindows);
    const schema = await schemaResolver(values, context, options);
    const all = { ...flatten(schema.errors), ...own };
    // A line's schema problem is said once, by the screen's own words, at the line's quantity.
    for (const key of Object.keys(all)) if (key === 'items.root') delete all[key];
    if (Object.keys(all).length === 0) return { values, errors: {} };
    return { values: {}, errors: nest(all) };
  };
}

/** The server's error paths that are fields of this form (the others show above it). */
export const isEntryField = (path: string): boolean =>
  /^(customerId|b2bClientId|contact\.(name|phone|email)|items|items\.\d+\.(productId|quantity|notes)|fulfillment|address\.(line|neighborhood|city|notes|lat|lng)|dueDate|window|paymentMethod|notes)$/.test(
    path,
  );
