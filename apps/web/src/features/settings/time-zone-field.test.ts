import { describe, expect, it } from 'vitest';
import { filterZones, utcOffset, zoneOptions } from './time-zone-field';

const at = new Date('2026-11-28T12:00:00Z');

describe('the time-zone list', () => {
  const zones = ['Africa/Abidjan', 'America/Bogota', 'America/Lima', 'America/Mexico_City', 'Europe/Madrid'];
  const options = zoneOptions(zones, at);

  it('puts Colombia first and says each zone in words with its offset', () => {
    expect(options[0]).toMatchObject({ zone: 'America/Bogota', label: 'Bogotá (UTC−5)', region: 'Colombia' });
    expect(options.map((o) => o.label)).toEqual([
      'Bogotá (UTC−5)',
      'Abidjan (UTC)',
      'Lima (UTC−5)',
      'Ciudad de México (UTC−6)',
      'Madrid (UTC+1)',
    ]);
    expect(utcOffset('Asia/Kolkata', at)).toBe('UTC+5:30');
  });

  it('finds by any word of the label or the IANA name, accents and case aside', () => {
    expect(filterZones(options, 'bogota').map((o) => o.zone)).toEqual(['America/Bogota']);
    expect(filterZones(options, 'CIUDAD mex').map((o) => o.zone)).toEqual(['America/Mexico_City']);
    expect(filterZones(options, 'colombia').map((o) => o.zone)).toEqual(['America/Bogota']);
    expect(filterZones(options, 'europe').map((o) => o.zone)).toEqual(['Europe/Madrid']);
    expect(filterZones(options, '  ')).toHaveLength(zones.length);
    expect(filterZones(options, 'zzz')).toEqual([]);
  });
});
