import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compareBytes, normaliseKey } from './text';
import { formatMoney } from './format';
import { isValidNit, nitCheckDigit } from './schemas/nit';
import { convertUnit, ProductInput } from './schemas/catalogue';
import { toPatchSchema } from './schemas/common';
import { SettingsInput } from './schemas/settings';

describe('normaliseKey', () => {
  it('folds case and Spanish accents, ñ included', () => {
    expect(normaliseKey('Almojábana')).toBe('almojabana');
    expect(normaliseKey('ÑAME Piñón')).toBe('name pinon');
    expect(normaliseKey('Pingüino')).toBe('pinguino');
  });
  it('is idempotent', () => {
    fc.assert(fc.property(fc.string(), (s) => normaliseKey(normaliseKey(s)) === normaliseKey(s)));
  });
  it('compares bytewise like COLLATE "C"', () => {
    expect(compareBytes('Z', 'a')).toBeLessThan(0);
    expect(compareBytes('z', 'á')).toBeLessThan(0);
    expect(compareBytes('ab', 'a')).toBeGreaterThan(0);
    expect(compareBytes('x', 'x')).toBe(0);
  });
});

describe('formatMoney', () => {
  it("writes the spec's USD style with no decimals", () => {
    expect(formatMoney(4500)).toBe('$4,500');
    expect(formatMoney(0)).toBe('$0');
    expect(formatMoney(1234567)).toBe('$1,234,567');
  });
});

describe('NIT', () => {
  it('computes the DIAN check digit', () => {
    expect(nitCheckDigit('900123456')).toBe(8);
    expect(nitCheckDigit('860002964')).toBe(4);
    expect(isValidNit('900.123.456-8')).toBe(true);
    expect(isValidNit('900123456-7')).toBe(false);
    expect(isValidNit('abc')).toBe(false);
  });
});

describe('convertUnit', () => {
  it('converts g↔kg and ml↔l and refuses the rest', () => {
    expect(convertUnit(500, 'g', 'kg')).toBe(0.5);
    expect(convertUnit(2, 'l', 'ml')).toBe(2000);
    expect(convertUnit(3, 'unidad', 'unidad')).toBe(3);
    expect(convertUnit(1, 'g', 'ml')).toBeNull();
  });
});

describe('schemas', () => {
  it('fills defaults on create but not on patch', () => {
    expect(ProductInput.parse({ name: ' Pan ', price: 100 })).toMatchObject({
      name: 'Pan',
      active: true,
      images: [],
      allergens: [],
    });
    expect(toPatchSchema(ProductInput).parse({ price: 5 })).toEqual({ price: 5 });
    expect(toPatchSchema(ProductInput).safeParse({ nope: 1 }).success).toBe(false);
  });
  it('keeps settings consistent', () => {
    expect(SettingsInput.safeParse({ marketName: 'X', location: { lat: 91, lng: 0 } }).success).toBe(false);
    expect(
      SettingsInput.safeParse({
        marketName: 'X',
        deliveryWindows: [{ id: 'a', label: 'A', start: '10:00', end: '09:00' }],
      }).success,
    ).toBe(false);
    expect(SettingsInput.parse({ marketName: 'X' }).timeZone).toBe('America/Bogota');
  });
});
