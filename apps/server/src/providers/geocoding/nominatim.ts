import { type GeoPoint, type Geocoder, geocodeCacheKey, isValidPoint } from './geocoder';
import { IntervalLimiter } from './rate-limiter';

/** Nominatim's /search answer, the fields we read (lat and lon are strings in its JSON). */
interface NominatimPlace {
  lat: string;
  lon: string;
}

export interface NominatimOptions {
  baseUrl: string;
  contact: string | undefined;
  fetch?: typeof fetch;
  limiter?: IntervalLimiter;
  /** How long one request may take before the address counts as not placed. */
  timeoutMs?: number;
}

/** One limiter for the whole process: the policy counts requests per application, not per caller. */
const processLimiter = new IntervalLimiter(1000);
/** Addresses remembered per geocoder; past this the oldest is forgotten (a long-running server stays bounded). */
const CACHE_ENTRIES = 10_000;

export function userAgent(contact: string | undefined): string {
  return contact ? `Hornada/1.0 (${contact})` : 'Hornada/1.0';
}

/**
 * The Nominatim driver. Answers are remembered by normalised address and city (misses too: an address
 * that was not found will not be found a minute later, and each request costs a second of the budget).
 */
export function nominatimGeocoder(options: NominatimOptions): Geocoder {
  const doFetch = options.fetch ?? fetch;
  const limiter = options.limiter ?? processLimiter;
  const cache = new Map<string, GeoPoint | null>();
  return {
    name: 'nominatim',
    async geocode(address, city) {
      const key = geocodeCacheKey(address, city);
      if (cache.has(key)) return cache.get(key) ?? null;
      const url = new URL(`${options.baseUrl}/search`);
      url.searchParams.set('q', `${address}, ${city}`);
      url.searchParams.set('format', 'jsonv2');
      url.searchParams.set('limit', '1');
      url.searchParams.set('countrycodes', 'co');
      await limiter.acquire();
      const res = await doFetch(url, {
        headers: { 'user-agent': userAgent(options.contact), accept: 'application/json' },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      // A failure of the service is not an answer about the address: not cached, so a later try may place it.
      if (!res.ok) throw new Error(`Nominatim answered ${res.status}`);
      const places = (await res.json()) as NominatimPlace[];
      const first = Array.isArray(places) ? places[0] : undefined;
      const point = first ? { lat: Number(first.lat), lng: Number(first.lon) } : null;
      const result = point && isValidPoint(point) ? point : null;
      if (cache.size >= CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
      cache.set(key, result);
      return result;
    },
  };
}
