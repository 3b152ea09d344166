import { formatMoney } from './format';
import type { OrderPaymentMethod, PaymentStatus } from './schemas/orders';

/**
 * Refunds, whole or partial (the admin's): how much of an order was given back and how much may still be,
 * and how the money goes back, in Spanish, for whoever gives it (the back office) and whoever gets it (the
 * customer's mail). Cash and transfers are given back by the bakery itself; only an online payment's refund
 * goes through the gateway.
 */

interface Refundable {
  total: number;
  paymentStatus: PaymentStatus;
  refunds?: readonly { amount: number }[];
}

/** What was refunded so far. */
export function refundedSoFar(order: Pick<Refundable, 'refunds'>): number {
  return (order.refunds ?? []).reduce((sum, r) => sum + r.amount, 0);
}

/** What may still be refunded: what was paid (the total) less the refunds so far; 0 unless paid. */
export function leftToRefund(order: Refundable): number {
  if (order.paymentStatus !== 'paid') return 0;
  return Math.max(0, order.total - refundedSoFar(order));
}

/** What the back office reads before recording a refund of `amount`: who gives the money back, and how. */
export function refundHowStaffEs(method: OrderPaymentMethod, amount: number): string {
  const money = formatMoney(amount);
  switch (method) {
    case 'cash':
      return `Devuelve ${money} en efectivo al cliente.`;
    case 'transfer':
      return `Devuelve ${money} al cliente por transferencia desde la cuenta de la panadería.`;
    case 'credit':
      return `Descuenta ${money} del saldo del cliente mayorista.`;
    case 'online':
      return `Devuelve ${money} desde el panel de la pasarela de pagos: aquí solo queda registrado.`;
  }
}

/** What the customer's mail says about how a refund of `amount` reaches them. */
export function refundHowCustomerEs(method: OrderPaymentMethod, amount: number): string {
  const money = formatMoney(amount);
  switch (method) {
    case 'cash':
      return `Te devolvemos ${money} en efectivo.`;
    case 'transfer':
      return `Te devolvemos ${money} por transferencia.`;
    case 'credit':
      return `Descontamos ${money} de tu saldo.`;
    case 'online':
      return `Devolvemos ${money} al medio con el que pagaste en línea; puede tardar unos días en verse.`;
  }
}
