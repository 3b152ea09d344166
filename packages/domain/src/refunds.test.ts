import { describe, expect, it } from 'vitest';
import { formatMoney } from './format';
import { paymentStatusText } from './order-status';
import { leftToRefund, refundedSoFar, refundHowCustomerEs, refundHowStaffEs } from './refunds';

describe('refunds', () => {
  it('leave what was paid less the refunds so far, and nothing unless paid', () => {
    const order = { total: 20_000, paymentStatus: 'paid' as const, refunds: [{ amount: 5_000 }, { amount: 2_500 }] };
    expect(refundedSoFar(order)).toBe(7_500);
    expect(leftToRefund(order)).toBe(12_500);
    expect(leftToRefund({ ...order, paymentStatus: 'refunded' })).toBe(0);
    expect(leftToRefund({ total: 9_000, paymentStatus: 'paid' })).toBe(9_000);
  });

  it('say the bakery gives back cash and transfers; only an online refund names the gateway', () => {
    expect(refundHowStaffEs('cash', 5_000)).toBe(`Devuelve ${formatMoney(5_000)} en efectivo al cliente.`);
    for (const m of ['cash', 'transfer', 'credit'] as const) {
      expect(refundHowStaffEs(m, 1)).not.toMatch(/pasarela/);
      expect(refundHowCustomerEs(m, 1)).not.toMatch(/pasarela|en línea/);
    }
    expect(refundHowStaffEs('online', 1)).toMatch(/pasarela/);
  });
});

describe('paymentStatusText', () => {
  it('never says a payment is in progress for a cancelled order', () => {
    expect(paymentStatusText('pending')).toBe('Pago en proceso');
    expect(paymentStatusText('pending', 'confirmed')).toBe('Pago en proceso');
    expect(paymentStatusText('pending', 'cancelled')).toBe('Sin cobro');
    expect(paymentStatusText('paid', 'cancelled')).toBe('Pagado');
  });
});
