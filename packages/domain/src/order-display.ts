/**
 * How an order's address, window and contact read wherever an order is shown (the staff's orders screen, the
 * customer's history, the guest's confirmation), so that each screen does not spell them again.
 */

/** An address as orders carry it (docs/design.md §5); only what these lines read. */
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
 * A window named "Mañana" reads as tomorrow beside a day ("Mañana, 26 de noviembre · Mañana"):
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

/** A map pin's coordinate as kept: six decimals, about 11 cm, finer than any phone's fix. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** "4.627800, -74.071200": a map pin as people read and check it. */
export function pinText(p: { lat: number; lng: number }): string {
  return `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;
}

const DOT_PAIR = /^(-?\d+(?:\.\d+)?)\s*[,;\s]\s*(-?\d+(?:\.\d+)?)$/;
const COMMA_PAIR = /^(-?\d+(?:,\d+)?)\s*[;\s]\s*(-?\d+(?:,\d+)?)$/;

/**
 * A pin typed or pasted as "latitude, longitude", as map apps copy it ("4.6278, -74.0712"; with decimal
 * commas "4,6278; -74,0712" or "4,6278 -74,0712" too): the point (six decimals), null when empty, or
 * 'invalid' when it is not a pair of coordinates on the map.
 */
export function parsePin(text: string): { lat: number; lng: number } | null | 'invalid' {
  const t = text.trim();
  if (!t) return null;
  const m = DOT_PAIR.exec(t) ?? COMMA_PAIR.exec(t);
  if (!m) return 'invalid';
  const [lat, lng] = [m[1]!, m[2]!].map((v) => Number(v.replace(',', '.'))) as [number, number];
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return 'invalid';
  return { lat: roundCoordinate(lat), lng: roundCoordinate(lng) };
}

/** Where an order's delivery point came from, as the office reads it (Order.geoSource, geoCheckedAt). */
export function locationText(order: {
  address: { lat: number | null; lng: number | null } | null;
  geoSource: 'geocoded' | 'pinned' | null;
  geoCheckedAt: string | null;
}): string {
  const placed = !!order.address && order.address.lat !== null && order.address.lng !== null;
  if (placed) return order.geoSource === 'geocoded' ? 'Ubicada por dirección' : 'Ubicación fijada a mano';
  return order.geoCheckedAt
    ? 'Sin ubicación: no encontramos esta dirección en el mapa'
    : 'Sin ubicación en el mapa todavía';
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
