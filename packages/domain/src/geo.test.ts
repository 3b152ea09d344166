import { describe, expect, it } from 'vitest';
import { googleMapsAt, pointText, roundCoordinate, wazeTo } from './geo';

describe('map pins without a map library', () => {
  it('rounds a phone’s fix to six decimals and shows it so', () => {
    expect(roundCoordinate(4.62781234567)).toBe(4.627812);
    expect(roundCoordinate(-74.0712349)).toBe(-74.071235);
    expect(pointText({ lat: 4.6278, lng: -74.0712 })).toBe('4.627800, -74.071200');
  });

  it('opens Google Maps and Waze at the coordinates', () => {
    const p = { lat: 4.6278, lng: -74.0712 };
    expect(googleMapsAt(p)).toBe('https://www.google.com/maps/search/?api=1&query=4.6278%2C-74.0712');
    expect(wazeTo(p)).toBe('https://waze.com/ul?ll=4.6278%2C-74.0712&navigate=yes');
  });
});
