import { describe, expect, it } from 'vitest';
import { balanceDue, historyLine } from './order-history';
import type { HistoryEntry } from './schemas/orders';

const by = { uid: 'u', name: 'Julián', role: 'company_staff' };
const entry = (field: string, from: unknown, to: unknown, at = '2026-11-25T15:00:00.000Z'): HistoryEntry => ({
  at,
  by,
  field,
  from,
  to,
});

describe('balanceDue (a paid order that grows)', () => {
  const placed = entry('status', null, 'pending');
  const paid = entry('paymentStatus', 'pending', 'paid');
  it('is the growth since it was paid', () => {
    const history = [placed, paid, entry('total', 20_000, 25_000)];
    expect(balanceDue({ total: 25_000, paymentStatus: 'paid', history })).toBe(5_000);
  });
  it('counts from the total it had when paid, after earlier edits', () => {
    const history = [placed, entry('total', 20_000, 18_000), paid, entry('total', 18_000, 30_000)];
    expect(balanceDue({ total: 30_000, paymentStatus: 'paid', history })).toBe(12_000);
  });
  it('is nothing for an unpaid order, an order that did not grow, or one that shrank', () => {
    expect(
      balanceDue({ total: 25_000, paymentStatus: 'unpaid', history: [placed, entry('total', 20_000, 25_000)] }),
    ).toBe(0);
    expect(balanceDue({ total: 20_000, paymentStatus: 'paid', history: [placed, paid] })).toBe(0);
    expect(
      balanceDue({ total: 15_000, paymentStatus: 'paid', history: [placed, paid, entry('total', 20_000, 15_000)] }),
    ).toBe(0);
  });
});

describe('historyLine of the driver\'s "No recibió"', () => {
  it('reads the reason in Spanish, and its clearing', () => {
    const driver = { uid: 'd', name: 'Wilson', role: 'delivery_assistant' };
    const failed = { ...entry('notReceived', null, { reason: 'other', details: 'Portería cerrada' }), by: driver };
    expect(historyLine(failed, [], 'America/Bogota')).toMatchObject({
      who: 'Wilson (domicilios)',
      what: 'No recibió: Otro: Portería cerrada',
    });
    const cleared = entry('notReceived', { reason: 'nobody_home', details: null }, null);
    expect(historyLine(cleared, [], 'America/Bogota').what).toBe('No recibió: se quitó (antes: No había nadie)');
  });
});

describe('historyLine says what changed, in words, and names people', () => {
  const line = (e: HistoryEntry) => historyLine(e, [], 'America/Bogota').what;
  it('names the driver an order was assigned to, and the one before', () => {
    const named = { ...entry('deliveryAssistantId', null, 'd1'), names: { from: null, to: 'Carlos Pérez' } };
    expect(line(named)).toBe('Asignado a Carlos Pérez');
    const moved = { ...entry('deliveryAssistantId', 'd1', 'd2'), names: { from: 'Carlos Pérez', to: 'Ana Gómez' } };
    expect(line(moved)).toBe('Asignado a Ana Gómez (antes: Carlos Pérez)');
    const cleared = { ...entry('deliveryAssistantId', 'd1', null), names: { from: 'Carlos Pérez', to: null } };
    expect(line(cleared)).toBe('Sin domiciliario (antes: Carlos Pérez)');
  });
  it('reads an older entry without names sensibly (never "— → asignado")', () => {
    expect(line(entry('deliveryAssistantId', null, 'd1'))).toBe('Asignado a un domiciliario');
    expect(line(entry('customerId', null, 'c1'))).toBe('Cliente: un cliente registrado');
  });
  it('says the status moved from what to what', () => {
    expect(line(entry('status', 'confirmed', 'in_production'))).toBe('Estado: Confirmado → En producción');
  });
  it('says an address, a contact or produced quantities changed, never "cambió → cambió"', () => {
    const address = (l: string) => ({
      label: null,
      line: l,
      neighborhood: null,
      city: null,
      notes: null,
      lat: null,
      lng: null,
    });
    expect(line(entry('address', address('Calle 1 # 2-3'), address('Carrera 7 # 45-10')))).toBe(
      'Dirección cambiada: Carrera 7 # 45-10',
    );
    expect(line(entry('address', address('Calle 1 # 2-3'), null))).toBe('Dirección quitada');
    expect(line(entry('contact', { name: 'A' }, { name: 'B' }))).toBe('Datos de contacto cambiados');
    expect(line(entry('producedQuantities', { p: 1 }, { p: 2 }))).toBe('Cantidades producidas actualizadas');
    expect(line(entry('somethingNew', { a: 1 }, { a: 2 }))).toBe('somethingNew cambió');
    for (const e of [entry('address', {}, {}), entry('contact', {}, {})]) expect(line(e)).not.toContain('→');
  });
  it('gives a value set for the first time without "— →"', () => {
    expect(line(entry('cashCollected', null, 20_000))).toMatch(/^Efectivo recibido: \$\s?20[.,]000$/);
    expect(line(entry('notes', null, 'Sin azúcar'))).toBe('Notas agregadas: Sin azúcar');
  });
});
