/**
 * Placing a delivery address on the map, so "Ordenar ruta" can order its stop. A driver answers a point or null; null means the
 * address could not be placed, never an error the order must carry.
 */
export interface GeoPoint {
  lat: number;
  lng: number;
}

export interface Geocoder {
  readonly name: 'nominatim' | 'stand-in';
  geocode(address: string, city: string): Promise<GeoPoint | null>;
}

/**
 * The same address typed twice differently ("Cra. 7 #60-12" and "carrera 7 # 60 12") must hit one cache
 * entry and one stand-in row: case, accents, punctuation and the usual Colombian abbreviations are folded.
 */
const ABBREVIATIONS: [RegExp, string][] = [
  [/\b(cra|cr|kra|kr|carrera)\b/g, 'carrera'],
  [/\b(cl|cll|calle)\b/g, 'calle'],
  [/\b(av|avda|avenida)\b/g, 'avenida'],
  [/\b(dg|diag|diagonal)\b/g, 'diagonal'],
  [/\b(tv|tr|transv|transversal)\b/g, 'transversal'],
];

export function normaliseAddress(address: string): string {
  let s = address
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\bno\.?(?=\s*\d)/g, ' ')
    .replace(/[#.,;:\-–/]/g, ' ');
  for (const [re, to] of ABBREVIATIONS) s = s.replace(re, to);
  return s.replace(/\s+/g, ' ').trim();
}

/** The cache key of an address in a city: both folded, so a point found once serves every spelling. */
export function geocodeCacheKey(address: string, city: string): string {
  return `${normaliseAddress(city)}|${normaliseAddress(address)}`;
}

/** Latitude and longitude within their valid ranges (a provider's answer is checked like a person's input). */
export function isValidPoint(p: { lat: number; lng: number }): boolean {
  return Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;
}
