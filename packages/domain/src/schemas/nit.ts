/**
 * Colombian NIT check digit (DIAN's modulo-11 algorithm with its fixed prime weights).
 * Accepts "900123456-7" (dots and spaces allowed).
 */
const WEIGHTS = [3, 7, 13, 17, 19, 23, 29, 37, 41, 43, 47, 53, 59, 67, 71];

export function nitCheckDigit(base: string): number {
  const digits = base.split('').reverse();
  let sum = 0;
  digits.forEach((d, i) => (sum += Number(d) * WEIGHTS[i]!));
  const r = sum % 11;
  return r > 1 ? 11 - r : r;
}

export function isValidNit(value: string): boolean {
  const m = /^(\d{5,15})-(\d)$/.exec(value.replace(/[.\s]/g, ''));
  if (!m) return false;
  return nitCheckDigit(m[1]!) === Number(m[2]);
}
