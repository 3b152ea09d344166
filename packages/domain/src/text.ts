/**
 * The normalised key of docs/design.md §3: ASCII lower case, Spanish and common Latin accents removed.
 * The database computes the same key with hornada_norm() (see the server's migrations), so text
 * sorts and searches agree byte for byte on every PostgreSQL, whatever its default collation.
 * Only ASCII letters are lower-cased, because that is what lower() under COLLATE "C" does.
 */
export const NORM_FROM = 'ÁÀÂÄÃÉÈÊËÍÌÎÏÓÒÔÖÕÚÙÛÜÑÇáàâäãéèêëíìîïóòôöõúùûüñç';
export const NORM_TO = 'aaaaaeeeeiiiiooooouuuuncaaaaaeeeeiiiiooooouuuunc';

const map = new Map<string, string>();
for (let i = 0; i < NORM_FROM.length; i++) map.set(NORM_FROM[i]!, NORM_TO[i]!);

export function normaliseKey(value: string): string {
  let out = '';
  for (const ch of value) {
    const code = ch.charCodeAt(0);
    if (code >= 65 && code <= 90) out += String.fromCharCode(code + 32);
    else out += map.get(ch) ?? ch;
  }
  return out;
}

const encoder = new TextEncoder();

/** Bytewise (UTF-8) comparison, as COLLATE "C" compares. */
export function compareBytes(a: string, b: string): number {
  const ba = encoder.encode(a);
  const bb = encoder.encode(b);
  const n = Math.min(ba.length, bb.length);
  for (let i = 0; i < n; i++) if (ba[i] !== bb[i]) return ba[i]! - bb[i]!;
  return ba.length - bb.length;
}

/**
 * A sentence ended with one period: "Café La Macarena S.A.S." stays as it is, "Pan de yuca" gains one. Text
 * that already ends in a period, an ellipsis, "?" or "!" (a closing quote or bracket after it counts) is
 * left alone, so a name ending in an abbreviation never reads "S.A.S..".
 */
export function endSentence(text: string): string {
  const trimmed = text.trimEnd();
  if (trimmed === '') return trimmed;
  return /[.!?…]["'»”)\]]*$/u.test(trimmed) ? trimmed : `${trimmed}.`;
}
