/** What went wrong with the embedded PostgreSQL, said so that the operator can act on it (docs/design.md §1). */
export class EmbeddedPgError extends Error {
  override name = 'EmbeddedPgError';
}

/** A failed file call's code (`ENOENT`, `EEXIST`…), if it has one. */
export const errCode = (err: unknown) => (err as NodeJS.ErrnoException | null)?.code;
