import { describe, expect, it } from 'vitest';
import {
  addressLine,
  locationText,
  mapHref,
  parsePin,
  pinText,
  roundCoordinate,
  telHref,
  whatsappHref,
  windowHours,
  windowLabel,
} from './order-display';

const windows = [
  { id: 'manana', label: 'Mañana', start: '08:00', end: '11:00' },
  { id: 'tarde', label: 'Tarde (2 a 5 p. m.)', start: '14:00', end: '17:00' },
  { id: 'noche', label: 'Noche' },
];

describe('how an order reads', () => {
  it('writes the address with the parts it has', () => {
    expect(addressLine({ line: 'Calle 45 # 13-20', neighborhood: 'Teusaquillo', city: 'Bogotá' })).toBe(
      'Calle 45 # 13-20, Teusaquillo, Bogotá',
    );
    expect(addressLine({ line: 'Calle 45 # 13-20', neighborhood: null, city: 'Bogotá' })).toBe(
      'Calle 45 # 13-20, Bogotá',
    );
    expect(addressLine(null)).toBe('');
  });

  it('writes a window as hours or by its name, never twice its hours', () => {
    expect(windowHours('manana', windows)).toBe('8:00–11:00');
    expect(windowHours('noche', windows)).toBe('noche');
    expect(windowHours(null, windows)).toBe('');
    expect(windowLabel('tarde', [{ id: 'tarde', label: 'Tarde', start: '14:00', end: '17:00' }])).toBe(
      'Tarde (14:00–17:00)',
    );
    expect(windowLabel('tarde', windows)).toBe('Tarde (2 a 5 p. m.)');
    expect(windowLabel('noche', windows)).toBe('Noche');
    expect(windowLabel('gone', windows)).toBe('gone');
    expect(windowLabel(null, windows)).toBe('');
  });

  it('says a window one way wherever it is shown: the shop, the office, the sheets', () => {
    // The office once showed the bare label ("Mañana") where the shop said "En la mañana (8:00–11:00)".
    const settings = [{ id: 'manana', label: 'Mañana', start: '08:00', end: '11:00', capacity: 5 }];
    const shop = windowLabel(
      'manana',
      settings.map(({ id, label, start, end }) => ({ id, label, start, end })),
    );
    expect(shop).toBe('En la mañana (8:00–11:00)');
    expect(windowLabel('manana', settings)).toBe(shop);
    expect(windowLabel('manana', [{ id: 'manana', label: 'Mañana' }])).toBe('En la mañana');
  });

  it('never lets a window read as a day ("Mañana" is also tomorrow)', () => {
    const seeded = [{ id: 'manana', label: 'Mañana (8:00 a 11:00)', start: '08:00', end: '11:00' }];
    expect(windowLabel('manana', seeded)).toBe('En la mañana (8:00 a 11:00)');
    expect(windowLabel('manana', windows)).toBe('En la mañana (8:00–11:00)');
    expect(windowLabel('x', [{ id: 'x', label: 'mañanita' }])).toBe('mañanita');
  });

  it('links a phone, WhatsApp and the map', () => {
    expect(telHref('+57 310-555 0101')).toBe('tel:+573105550101');
    expect(whatsappHref('310 555 0101')).toBe('https://wa.me/573105550101');
    expect(whatsappHref('+57 310 555 0101', 'Pedido #12')).toBe('https://wa.me/573105550101?text=Pedido%20%2312');
    expect(whatsappHref('123')).toBeNull();
    const base = { line: 'Calle 45 # 13-20', neighborhood: 'Teusaquillo', city: 'Bogotá' };
    expect(mapHref({ ...base, lat: 4.6, lng: -74.1 })).toBe(
      'https://www.google.com/maps/search/?api=1&query=4.6%2C-74.1',
    );
    expect(mapHref({ ...base, lat: null, lng: null })).toContain(encodeURIComponent('Calle 45 # 13-20, Teusaquillo'));
    expect(mapHref(null)).toBeNull();
  });
});

describe('a map pin without a map library', () => {
  it('keeps a phone’s fix to six decimals, shows it so, and opens Google Maps at it', () => {
    expect(roundCoordinate(4.62781234567)).toBe(4.627812);
    expect(roundCoordinate(-74.0712349)).toBe(-74.071235);
    expect(pinText({ lat: 4.6278, lng: -74.0712 })).toBe('4.627800, -74.071200');
    expect(mapHref({ line: '', lat: 4.6278, lng: -74.0712 })).toBe(
      'https://www.google.com/maps/search/?api=1&query=4.6278%2C-74.0712',
    );
  });
});

describe('a pin typed or pasted', () => {
  it('reads "lat, lng" as map apps copy it, with decimal points or commas', () => {
    expect(parsePin('4.6278, -74.0712')).toEqual({ lat: 4.6278, lng: -74.0712 });
    expect(parsePin(' 4.62781234,-74.07123456 ')).toEqual({ lat: 4.627812, lng: -74.071235 });
    expect(parsePin('4.6278 -74.0712')).toEqual({ lat: 4.6278, lng: -74.0712 });
    expect(parsePin('4,6278; -74,0712')).toEqual({ lat: 4.6278, lng: -74.0712 });
    expect(parsePin('4,6278 -74,0712')).toEqual({ lat: 4.6278, lng: -74.0712 });
    expect(parsePin('')).toBeNull();
    expect(parsePin('   ')).toBeNull();
  });
  it('refuses what is not a point on the map', () => {
    for (const text of ['4.6278', 'Calle 45', '91, -74', '4.6, 181', '4.6, -74, 3', '4,6,-74,0']) {
      expect(parsePin(text), text).toBe('invalid');
    }
  });
  it('says where the point came from', () => {
    const at = { lat: 4.6, lng: -74 };
    expect(locationText({ address: at, geoSource: 'geocoded', geoCheckedAt: 'x' })).toBe('Ubicada por dirección');
    expect(locationText({ address: at, geoSource: 'pinned', geoCheckedAt: null })).toBe('Ubicación fijada a mano');
    const none = { lat: null, lng: null };
    expect(locationText({ address: none, geoSource: null, geoCheckedAt: 'x' })).toMatch(
      /^Sin ubicación: no encontramos/,
    );
    expect(locationText({ address: none, geoSource: null, geoCheckedAt: null })).toBe(
      'Sin ubicación en el mapa todavía',
    );
  });
});
