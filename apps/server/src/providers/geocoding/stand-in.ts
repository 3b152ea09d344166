import { type GeoPoint, type Geocoder, geocodeCacheKey } from './geocoder';

/**
 * The stand-in's table: the demo's Bogotá streets (seed/orders.ts) and a few known places, keyed like the
 * cache so any usual spelling matches. Anything else is not placed, as Nominatim would answer for an
 * address it does not know.
 */
const KNOWN: [address: string, city: string, point: GeoPoint][] = [
  ['Calle 45 # 13-20', 'Bogotá', { lat: 4.6331, lng: -74.0678 }],
  ['Carrera 7 # 60-12', 'Bogotá', { lat: 4.6458, lng: -74.0613 }],
  ['Calle 53 # 21-40', 'Bogotá', { lat: 4.6425, lng: -74.0721 }],
  ['Carrera 15 # 85-33', 'Bogotá', { lat: 4.6705, lng: -74.0551 }],
  ['Calle 26 # 19-08', 'Bogotá', { lat: 4.6151, lng: -74.0742 }],
  ['Carrera 4A # 26-15', 'Bogotá', { lat: 4.6155, lng: -74.0667 }],
  ['Calle 85 # 11-40', 'Bogotá', { lat: 4.6695, lng: -74.0533 }],
  ['Calle 39 # 17-26', 'Bogotá', { lat: 4.6283, lng: -74.0713 }],
  ['Carrera 43A # 1-50', 'Medellín', { lat: 6.2106, lng: -75.5706 }],
];

const TABLE = new Map(KNOWN.map(([address, city, point]) => [geocodeCacheKey(address, city), point]));

/** Answers a known address's point in Nominatim's JSON shape (lat/lon as strings), or an empty list. */
export function standInSearch(query: string): { lat: string; lon: string; display_name: string }[] {
  const comma = query.lastIndexOf(',');
  const address = comma < 0 ? query : query.slice(0, comma);
  const city = comma < 0 ? '' : query.slice(comma + 1);
  const point = TABLE.get(geocodeCacheKey(address, city));
  return point ? [{ lat: String(point.lat), lon: String(point.lng), display_name: query.trim() }] : [];
}

export function standInGeocoder(): Geocoder {
  return {
    name: 'stand-in',
    async geocode(address, city) {
      const [first] = standInSearch(`${address}, ${city}`);
      return first ? { lat: Number(first.lat), lng: Number(first.lon) } : null;
    },
  };
}
