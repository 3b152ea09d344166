import { describe, expect, it } from 'vitest';
import { absoluteDay, addDays, historyLine, orderMoves, presetOf, shortDay } from './order-view';

const windows = [{ id: 'manana', label: 'Mañana (8:00 a 11:00)', start: '08:00', end: '11:00' }];

describe('orders screen view helpers', () => {
  it('reads days in the company zone', () => {
    expect(addDays('2026-11-30', 1)).toBe('2026-12-01');
    // 05:00Z is midnight in Bogotá: the 24th there.
    expect(shortDay('2026-11-24T05:00:00.000Z', 'America/Bogota', '2026-11-24')).toBe('Hoy');
    expect(shortDay('2026-11-25T05:00:00.000Z', 'America/Bogota', '2026-11-24')).toBe('Mañana');
    expect(shortDay('2026-11-27T05:00:00.000Z', 'America/Bogota', '2026-11-24')).toMatch(/27/);
    expect(presetOf('today', '')).toBe('upcoming');
    expect(presetOf('', '')).toBe('all');
    expect(presetOf('2026-11-01', '2026-11-03')).toBe('custom');
    expect(absoluteDay('today-1', '2026-12-01')).toBe('2026-11-30');
    expect(absoluteDay('2026-11-03', '2026-12-01')).toBe('2026-11-03');
  });

  it('offers only the moves the role table allows', () => {
    const order = {
      status: 'pending',
      fulfillment: 'delivery',
      paymentMethod: 'cash',
      paymentStatus: 'unpaid',
    } as const;
    expect(orderMoves('company_staff', order)).toEqual({
      next: 'confirmed',
      cancel: true,
      markPaid: true,
      refund: false,
      clearRefunds: false,
    });
    expect(orderMoves('production_assistant', order)).toEqual({
      next: null,
      cancel: false,
      markPaid: false,
      refund: false,
      clearRefunds: false,
    });
    expect(orderMoves('production_assistant', { ...order, status: 'confirmed' }).next).toBe('in_production');
    expect(orderMoves('company_staff', { ...order, paymentMethod: 'online' }).markPaid).toBe(false);
    expect(orderMoves('company_admin', { ...order, status: 'delivered', paymentStatus: 'paid' }).refund).toBe(true);
    expect(orderMoves('company_staff', { ...order, status: 'ready', fulfillment: 'pickup' }).next).toBe('delivered');
    // A payment owed back is cleared by whoever may refund: the admin, not staff.
    const owed = {
      ...order,
      status: 'cancelled' as const,
      paymentMethod: 'online' as const,
      paymentStatus: 'paid' as const,
      refundsDue: [
        {
          reason: 'after-cancel' as const,
          transactionId: 't',
          reference: 'r',
          amountInCents: 100,
          currency: 'COP',
          at: '',
        },
      ],
    };
    expect(orderMoves('company_admin', owed).clearRefunds).toBe(true);
    expect(orderMoves('company_staff', owed).clearRefunds).toBe(false);
    expect(orderMoves('company_admin', { ...owed, refundsDue: [] }).clearRefunds).toBe(false);
  });

  it('tells the history in Spanish', () => {
    const by = { uid: 'u1', name: 'Julián Pérez', role: 'company_staff' };
    const at = '2026-11-24T15:05:00.000Z';
    expect(
      historyLine({ at, by, field: 'status', from: 'pending', to: 'confirmed' }, windows, 'America/Bogota'),
    ).toEqual({
      at,
      when: expect.stringMatching(/10:05/) as string,
      who: 'Julián Pérez (equipo)',
      what: 'Estado: Pendiente → Confirmado',
    });
    const created = historyLine(
      { at, by: { uid: null, name: 'Lucía', role: 'guest' }, field: 'status', from: null, to: 'pending' },
      windows,
      'America/Bogota',
    );
    expect(created.what).toBe('Pedido recibido: Pendiente');
    expect(historyLine({ at, by, field: 'total', from: 20000, to: 26000 }, windows, 'UTC').what).toBe(
      'Total: $20,000 → $26,000',
    );
  });
});
