/** Money as spec §1 and design §4 say: USD style, no decimals ("$4,500"). */
const money = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});
export function formatMoney(amount: number): string {
  return money.format(amount);
}
