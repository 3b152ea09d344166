import type { GeocodingConfig } from '../../config';
import type { Geocoder } from './geocoder';
import { nominatimGeocoder } from './nominatim';
import { standInGeocoder } from './stand-in';

export type { GeoPoint, Geocoder } from './geocoder';
export { geocodeCacheKey, isValidPoint, normaliseAddress } from './geocoder';
export { standInSearch } from './stand-in';

/** The configured geocoder, or null when GEOCODER=off. */
export function createGeocoder(config: GeocodingConfig): Geocoder | null {
  if (config.driver === 'off') return null;
  if (config.driver === 'stand-in') return standInGeocoder();
  return nominatimGeocoder({ baseUrl: config.nominatimUrl, contact: config.contact });
}
