/** Person names as docs/product.md §1 shows them; no zod here, so the storefront's pages can use it without the schemas. */

/** Words of a person's name kept in lower case when they are not its first word (docs/product.md §1). */
export const NAME_PARTICLES: ReadonlySet<string> = new Set([
  'de',
  'del',
  'la',
  'las',
  'los',
  'y',
  'e',
  'da',
  'das',
  'do',
  'dos',
  'van',
  'von',
  'der',
  'di',
]);

function capitalise(word: string): string {
  // Each part of a hyphenated name is a name of its own: "maría-josé" → "María-José"; initials keep their
  // capitals ("j.m." → "J.M.", "s.a.s." → "S.A.S." when a company's name stands in for a contact's).
  return word
    .split('-')
    .map((part) =>
      part.replace(/(^|\.)(\p{L})/gu, (_, dot: string, letter: string) => dot + letter.toLocaleUpperCase('es-CO')),
    )
    .join('-');
}

/**
 * Title case for person names, particles kept in lower case (docs/product.md §1): "MARÍA DE LOS ÁNGELES"
 * → "María de los Ángeles". The first word is always capitalised; runs of spaces collapse to one.
 */
export function titleCaseName(name: string): string {
  return name
    .trim()
    .toLocaleLowerCase('es-CO')
    .split(/\s+/)
    .map((w, i) => (i > 0 && NAME_PARTICLES.has(w) ? w : capitalise(w)))
    .join(' ');
}

/** Spec §2: the first word of a person's name, title-cased whatever was stored; 'Usuario' without one. */
export function firstName(name: string | null | undefined): string {
  return titleCaseName(name ?? '').split(' ')[0] || 'Usuario';
}
