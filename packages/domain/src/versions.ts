/**
 * A record's version for `If-Match`: its `updatedAt` as the API sends it, quoted, so a
 * client holding the record from a list or the live feed (a driver's phone, offline) can name the
 * version it saw without another read. The server moves `updatedAt` forward on every update.
 */
export const IF_MATCH_HEADER = 'if-match';

export function etagOf(updatedAt: Date | string): string {
  return `"${new Date(updatedAt).toISOString()}"`;
}
