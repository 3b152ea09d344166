import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { createGeocoder, geocodeCacheKey, normaliseAddress, standInSearch } from '../src/providers/geocoding';
import { nominatimGeocoder, userAgent } from '../src/providers/geocoding/nominatim';
import { IntervalLimiter } from '../src/providers/geocoding/rate-limiter';

describe('address normalisation', () => {
  it('folds case, accents, punctuation and street abbreviations', () => {
    expect(normaliseAddress('Cra. 7 #60-12')).toBe('carrera 7 60 12');
    expect(normaliseAddress('  CARRERA 7  # 60 - 12 ')).toBe('carrera 7 60 12');
    expect(normaliseAddress('Cl 45 No. 13-20')).toBe('calle 45 13 20');
    expect(normaliseAddress('Av. Jiménez 4-35')).toBe('avenida jimenez 4 35');
  });

  it('keeps different addresses apart', () => {
    expect(normaliseAddress('Calle 45 # 13-20')).not.toBe(normaliseAddress('Calle 45 # 13-21'));
    expect(normaliseAddress('Carrera 4A # 26-15')).not.toBe(normaliseAddress('Carrera 4 # 26-15'));
  });
});

describe('cache key', () => {
  it('is one key for every spelling of one address in one city', () => {
    expect(geocodeCacheKey('Cra. 7 #60-12', 'Bogotá')).toBe(geocodeCacheKey('carrera 7 # 60 12', 'BOGOTA'));
  });

  it('tells cities apart', () => {
    expect(geocodeCacheKey('Calle 10 # 5-20', 'Bogotá')).not.toBe(geocodeCacheKey('Calle 10 # 5-20', 'Cali'));
  });
});

describe('interval limiter', () => {
  it('spaces concurrent callers one interval apart', async () => {
    let clock = 10_000;
    const slept: number[] = [];
    const limiter = new IntervalLimiter(
      1000,
      () => clock,
      async (ms) => {
        slept.push(ms);
      },
    );
    await Promise.all([limiter.acquire(), limiter.acquire(), limiter.acquire()]);
    expect(slept).toEqual([1000, 2000]);
    // Once the interval has passed, the next caller goes at once.
    clock += 5000;
    await limiter.acquire();
    expect(slept).toEqual([1000, 2000]);
  });

  it('makes real callers wait', async () => {
    const limiter = new IntervalLimiter(60);
    const start = Date.now();
    await limiter.acquire();
    await limiter.acquire();
    await limiter.acquire();
    expect(Date.now() - start).toBeGreaterThanOrEqual(110);
  });
});

describe('stand-in', () => {
  it("answers the demo's addresses in Nominatim's shape and nothing for the rest", async () => {
    expect(standInSearch('Cra 7 # 60-12, Bogotá')).toEqual([
      { lat: '4.6458', lon: '-74.0613', display_name: 'Cra 7 # 60-12, Bogotá' },
    ]);
    expect(standInSearch('Vereda El Rosal, finca 3, Bogotá')).toEqual([]);
    const g = createGeocoder(parseConfig({}).geocoding);
    expect(g?.name).toBe('stand-in');
    expect(await g?.geocode('Calle 45 # 13-20', 'Bogotá')).toEqual({ lat: 4.6331, lng: -74.0678 });
    expect(await g?.geocode('Calle 45 # 13-20', 'Cali')).toBeNull();
  });
});

describe('configuration', () => {
  it('uses Nominatim in production, the stand-in elsewhere, and can be turned off', () => {
    expect(parseConfig({}).geocoding).toEqual({
      driver: 'stand-in',
      nominatimUrl: 'https://nominatim.openstreetmap.org',
      contact: undefined,
    });
    expect(createGeocoder(parseConfig({ GEOCODER: 'off' }).geocoding)).toBeNull();
    const n = parseConfig({ GEOCODER: 'nominatim', NOMINATIM_URL: 'http://geo.local/', GEOCODER_CONTACT: 'ops@x.co' });
    expect(n.geocoding).toEqual({ driver: 'nominatim', nominatimUrl: 'http://geo.local', contact: 'ops@x.co' });
    expect(() => parseConfig({ GEOCODER: 'google' })).toThrow(/GEOCODER/);
    expect(() => parseConfig({ NOMINATIM_URL: 'not a url' })).toThrow(/NOMINATIM_URL/);
  });
});

describe('nominatim driver over HTTP', () => {
  // A local server speaking Nominatim's /search with the stand-in's table, so the driver's HTTP code runs.
  const requests: { url: URL; agent: string | undefined }[] = [];
  let failNext = false;
  let server: http.Server;
  let baseUrl = '';
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      requests.push({ url, agent: req.headers['user-agent'] });
      if (failNext) {
        failNext = false;
        res.writeHead(503).end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(standInSearch(url.searchParams.get('q') ?? '')));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('asks once per address in Colombia, names Hornada and the contact, and caches hits and misses', async () => {
    const g = nominatimGeocoder({ baseUrl, contact: 'ops@panaderia.co', limiter: new IntervalLimiter(0) });
    expect(await g.geocode('Carrera 15 # 85-33', 'Bogotá')).toEqual({ lat: 4.6705, lng: -74.0551 });
    expect(await g.geocode('Cra. 15 #85-33', 'bogota')).toEqual({ lat: 4.6705, lng: -74.0551 });
    expect(await g.geocode('Finca La Esperanza', 'Bogotá')).toBeNull();
    expect(await g.geocode('finca la esperanza', 'Bogotá')).toBeNull();
    expect(requests).toHaveLength(2);
    expect(requests[0]?.url.pathname).toBe('/search');
    expect(requests[0]?.url.searchParams.get('countrycodes')).toBe('co');
    expect(requests[0]?.url.searchParams.get('format')).toBe('jsonv2');
    expect(requests[0]?.agent).toBe(userAgent('ops@panaderia.co'));
    expect(requests[0]?.agent).toMatch(/^Hornada\/.*ops@panaderia\.co/);
  });

  it('does not cache a failure of the service', async () => {
    const g = nominatimGeocoder({ baseUrl, contact: undefined, limiter: new IntervalLimiter(0) });
    failNext = true;
    await expect(g.geocode('Calle 26 # 19-08', 'Bogotá')).rejects.toThrow(/503/);
    expect(await g.geocode('Calle 26 # 19-08', 'Bogotá')).toEqual({ lat: 4.6151, lng: -74.0742 });
  });
});
