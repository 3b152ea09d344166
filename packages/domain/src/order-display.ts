/**
 * How an order's address, window and contact read wherever an order is shown (the staff's orders screen, the
 * customer's history, the guest's confirmation), so that each screen does not spell them again.
 */

/** An address as orders carry it (design §5); only what these lines read. */
export interface AddressParts {
  line: string;
  neighborhood?: string | null;
  city?: string | null;
  lat?: number | null;
  lng?: number | null;
}

/** A delivery window as the settings define it; `start`/`end` 'HH:MM' when known. */
export interface WindowParts {
  /** Null for a bakery that delivers all day (delivery-days' single window). */
  id: string | null;
  label: string;
  start?: string;
  end?: string;
}

/** 'Calle 45 # 13-20, Teusaquillo, Bogotá': the parts there are, in that order; '' without an address. */
export function addressLine(address: AddressParts | null | undefined): string {
  if (!address) return '';
  return [address.line, address.neighborhood, address.city].filter(Boolean).join(', ');
}

const hour = (hhmm: string) => hhmm.replace(/^0(\d)/, '$1');

/** A delivery window as hours ('8:00–11:00'); its id when unknown or without hours; '' for none. */
export function windowHours(windowId: string | null, windows: readonly WindowParts[]): string {
  if (!windowId) return '';
  const w = windows.find((x) => x.id === windowId);
  return w?.start && w.end ? `${hour(w.start)}–${hour(w.end)}` : windowId;
}

/**
 * A window named "Mañana" reads as tomorrow beside a day (issue 29: "Mañana, 26 de noviembre · Mañana"):
 * said as the time of day it is, "En la mañana".
 */
const asTimeOfDay = (label: string) => (/^mañana(?![\p{L}])/iu.test(label) ? `En la m${label.slice(1)}` : label);

/**
 * A delivery window by its name: its label, with its hours when the label does not already say them
 * ('Tarde (14:00–17:00)'), never readable as a day ('En la mañana (8:00–11:00)'); its id when unknown; ''
 * for none.
 */
export function windowLabel(windowId: string | null, windows: readonly WindowParts[]): string {
  if (!windowId) return '';
  const w = windows.find((x) => x.id === windowId);
  if (!w) return windowId;
  const label = asTimeOfDay(w.label);
  if (/\d/.test(label) || !w.start || !w.end) return label;
  return `${label} (${hour(w.start)}–${hour(w.end)})`;
}

/** `tel:` for a phone as typed (spaces and dashes dropped, a leading + kept). */
export function telHref(phone: string): string {
  return `tel:${phone.replace(/[^\d+]/g, '')}`;
}

/** wa.me for a phone, with an optional first message: a Colombian mobile without country code gets 57. */
export function whatsappHref(phone: string, text?: string): string | null {
  let digits = phone.replace(/\D/g, '');
  if (digits.length === 10 && digits.startsWith('3')) digits = `57${digits}`;
  if (digits.length < 8) return null;
  return `https://wa.me/${digits}${text ? `?text=${encodeURIComponent(text)}` : ''}`;
}

/** A map pin's coordinate as kept: six decimals, about 11 cm, finer than any phone's fix (issue 27). */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** "4.627800, -74.071200": a map pin as people read and check it. */
export function pinText(p: { lat: number; lng: number }): string {
  return `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;
}

/** Google Maps for an address: its point when known, else its text. */
export function mapHref(address: AddressParts | null | undefined): string | null {
  if (!address) return null;
  const query =
    address.lat !== null && address.lat !== undefined && address.lng !== null && address.lng !== undefined
      ? `${address.lat},${address.lng}`
      : addressLine(address);
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(query)}`;
}
