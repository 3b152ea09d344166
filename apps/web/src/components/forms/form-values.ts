/**
 * Between what a form holds (strings, as inputs give them) and what the API takes (pure). A number that is
 * not one becomes NaN, so that the shared schema says "Escribe un número." under the field instead of the
 * form guessing.
 */

/** Text to show in an input: null and undefined are empty. */
export const textOf = (value: string | number | null | undefined): string =>
  value === null || value === undefined ? '' : String(value);

/** Trimmed text, null when empty (the API stores empty optional text as null). */
export const optionalText = (value: string): string | null => (value.trim() === '' ? null : value.trim());

/** A whole number as people type it ("4.500", "4,500" or "4500" for money); NaN when it is not one. */
export function parseWhole(value: string): number {
  const text = value.trim().replace(/[$\s]/g, '');
  if (!/^-?\d{1,3}([.,]\d{3})+$|^-?\d+$/.test(text)) return Number.NaN;
  return Number(text.replace(/[.,]/g, ''));
}

/** An optional whole number: null when empty. */
export const optionalWhole = (value: string): number | null => (value.trim() === '' ? null : parseWhole(value));

/** A decimal as people type it here ("4,65" or "4.65"); NaN when it is not one. */
export function parseDecimal(value: string): number {
  const text = value.trim().replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(text) ? Number(text) : Number.NaN;
}

/** An optional decimal: null when empty. */
export const optionalDecimal = (value: string): number | null => (value.trim() === '' ? null : parseDecimal(value));

/** An id from a select: null for "none". */
export const optionalId = (value: string): string | null => (value === '' ? null : value);
