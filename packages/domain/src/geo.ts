/**
 * Points on the map without a map library (issue 27): the links that open Google Maps and Waze at a
 * point, and a pin's coordinates as shown and stored. Zod-free, so the checkout's chunk stays small.
 */

export interface Point {
  lat: number;
  lng: number;
}

/** Six decimals: about 11 cm, finer than any phone's fix. */
export function roundCoordinate(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/** "4.627800, -74.071200": the pin as people read and check it. */
export function pointText(p: Point): string {
  return `${p.lat.toFixed(6)}, ${p.lng.toFixed(6)}`;
}

/** Google Maps at the point (opens the app on a phone). */
export function googleMapsAt(p: Point): string {
  return `https://www.google.com/maps/search/?api=1&query=${encodeURIComponent(`${p.lat},${p.lng}`)}`;
}

/** Waze driving to the point. */
export function wazeTo(p: Point): string {
  return `https://waze.com/ul?ll=${encodeURIComponent(`${p.lat},${p.lng}`)}&navigate=yes`;
}
