/**
 * Money as docs/product.md §1 and docs/design.md §4 say: USD style, no decimals ("$4,500"). Its own module, which
 * format.ts re-exports: the storefront's product cards need only this, and format.ts's other formatters (built at
 * import) would otherwise come with the first load of every page.
 */
const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
export function formatMoney(amount: number): string {
  return money.format(amount);
}
