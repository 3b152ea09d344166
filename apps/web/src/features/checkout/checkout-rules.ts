import { CheckoutInput, type CheckoutBody, type OfferedDay } from '@hornada/domain/schemas/orders';
import type { Resolver } from 'react-hook-form';
import { domainResolver, type Issue } from '../../lib/form-rules';
import type { Point } from '../../components/forms/location-pin';
import type { StorefrontMethod } from './checkout-api';

/**
 * The checkout form's values (docs/design.md §3): the API's own field names, so that the domain's schema
 * (CheckoutInput, the server's check) names the fields it finds wrong; text as typed, turned into the body
 * the server takes by `checkoutBody`.
 */
export interface CheckoutValues {
  contact: { name: string; phone: string; email: string };
  createAccount: boolean;
  fulfillment: 'delivery' | 'pickup';
  address: { line: string; neighborhood: string; city: string };
  /** The map pin: optional; the route puts an address without one last. */
  pin: Point | null;
  dueDate: string;
  /** A window's id; '' when none is chosen (or the day has none). */
  window: string;
  paymentMethod: StorefrontMethod | '';
  notes: string;
  remember: boolean;
}

const orNull = (text: string) => text.trim() || null;

/** What the server is sent for these values; `signedIn` says whether there is an account to remember them in. */
export function checkoutBody(v: CheckoutValues, signedIn: boolean): CheckoutBody {
  const email = v.contact.email.trim();
  return {
    contact: { name: v.contact.name.trim(), phone: v.contact.phone.trim(), email: email || null },
    fulfillment: v.fulfillment,
    address:
      v.fulfillment === 'delivery'
        ? {
            line: v.address.line.trim(),
            neighborhood: orNull(v.address.neighborhood),
            city: orNull(v.address.city),
            notes: null,
            lat: v.pin?.lat ?? null,
            lng: v.pin?.lng ?? null,
          }
        : null,
    dueDate: v.dueDate,
    window: v.window || null,
    // An empty choice fails the schema's enum, which says so under the payment methods.
    paymentMethod: v.paymentMethod as StorefrontMethod,
    notes: orNull(v.notes),
    createAccount: !signedIn && v.createAccount && email !== '',
    remember: signedIn && v.remember,
  };
}

/** The checkout's own words for what a shopper left out (the schema's are the API's English). */
const LEFT_OUT: Record<string, string> = {
  'contact.name': 'Escribe tu nombre.',
  'contact.phone': 'Escribe un teléfono de contacto.',
  'address.line': 'Escribe la dirección de entrega.',
  dueDate: 'Elige el día de entrega.',
  paymentMethod: 'Elige cómo vas a pagar.',
};

function message(path: string, issue: Issue): string | null {
  const leftOut = issue.code === 'too_small' || issue.code === 'invalid_type' || issue.code === 'invalid_value';
  return path === 'dueDate' || path === 'paymentMethod' || leftOut ? (LEFT_OUT[path] ?? null) : null;
}

/**
 * The form checked with CheckoutInput, as the server will check it, and what only this screen knows: the day
 * must be one the bakery offers now, and a day with windows needs one chosen.
 */
export function checkoutResolver(days: readonly OfferedDay[], signedIn: boolean): Resolver<CheckoutValues> {
  return domainResolver<CheckoutValues>(CheckoutInput, (v) => checkoutBody(v, signedIn), {
    message,
    check(v): Record<string, string> {
      const day = days.find((d) => d.date === v.dueDate);
      if (!day) return { dueDate: LEFT_OUT.dueDate! };
      if (day.windows.some((w) => w.id !== null) && !v.window) return { window: 'Elige un horario.' };
      return {};
    },
  });
}
