/** What went wrong with the embedded PostgreSQL, said so that the operator can act on it (docs/design.md §1). */
export class EmbeddedPgError extends Error {
  override name = 'EmbeddedPgError';
}
