import { describe, expect, it } from 'vitest';
import {
  optionalDecimal,
  optionalId,
  optionalText,
  optionalWhole,
  parseDecimal,
  parseWhole,
  textOf,
} from './form-values';

describe('form values', () => {
  it('shows empty text for missing values', () => {
    expect(textOf(null)).toBe('');
    expect(textOf(undefined)).toBe('');
    expect(textOf(4500)).toBe('4500');
  });
  it('sends empty optional text as null, trimmed otherwise', () => {
    expect(optionalText('   ')).toBeNull();
    expect(optionalText(' Pan ')).toBe('Pan');
  });
  it('reads money as people type it, and NaN for anything else', () => {
    expect(parseWhole('4500')).toBe(4500);
    expect(parseWhole('4.500')).toBe(4500);
    expect(parseWhole('$ 4,500')).toBe(4500);
    expect(parseWhole('1.234.567')).toBe(1234567);
    expect(parseWhole('45.5')).toBeNaN();
    expect(parseWhole('abc')).toBeNaN();
    expect(parseWhole('')).toBeNaN();
    expect(optionalWhole('')).toBeNull();
  });
  it('reads decimals with a comma or a point', () => {
    expect(parseDecimal('4,65')).toBe(4.65);
    expect(parseDecimal('4.65')).toBe(4.65);
    expect(parseDecimal('4,6,5')).toBeNaN();
    expect(optionalDecimal(' ')).toBeNull();
  });
  it('reads "none" in a select as null', () => {
    expect(optionalId('')).toBeNull();
    expect(optionalId('abc')).toBe('abc');
  });
});
