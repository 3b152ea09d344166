/**
 * A company's API path (docs/api.md): `/companies/{companyId}/{segment}/…`, each part encoded, so that no
 * screen spells the company's URL by hand: `companyPath(id, 'orders', order.id)`.
 */
export function companyPath(companyId: string, ...segments: string[]): string {
  return ['/companies', companyId, ...segments].map((s, i) => (i === 0 ? s : encodeURIComponent(s))).join('/');
}
