import { describe, expect, it } from 'vitest';
import { isValidSlug, setupChecklist, slugCandidate, slugify } from './shops';

describe('slugs (a bakery’s host label)', () => {
  it('makes a lower-case DNS label from a Spanish name', () => {
    expect(slugify('Horno de Carlos')).toBe('horno-de-carlos');
    expect(slugify('  Panadería Ñandú & Cía. ')).toBe('panaderia-nandu-cia');
    expect(slugify('PANADERÍA—LA ESPIGA!!')).toBe('panaderia-la-espiga');
  });

  it('never gives a reserved, empty, IDNA-looking or overlong label', () => {
    expect(slugify('WWW')).toBe('www-panaderia');
    expect(slugify('api')).toBe('api-panaderia');
    expect(slugify('パン屋')).toBe('panaderia');
    expect(slugify('🥖🥐')).toBe('panaderia');
    expect(slugify('xn--80ak6aa92e')).toBe('xn-80ak6aa92e');
    const long = slugify('Panadería '.repeat(20));
    expect(long.length).toBeLessThanOrEqual(38);
    expect(isValidSlug(long)).toBe(true);
    for (const name of ['www', 'API', 'パン屋', 'a--b', '-x-', 'Ñ'])
      expect(isValidSlug(slugify(name)), name).toBe(true);
  });

  it('refuses labels a host could be spoofed with', () => {
    for (const bad of ['www', 'Horno', 'xn--horno', 'ab--cd', '-horno', 'horno-', 'a.b', '', 'horno_de']) {
      expect(isValidSlug(bad), bad).toBe(false);
    }
    expect(isValidSlug('horno-de-carlos-2')).toBe(true);
  });

  it('numbers a clash from 2', () => {
    expect([1, 2, 3].map((n) => slugCandidate('horno', n))).toEqual(['horno', 'horno-2', 'horno-3']);
  });
});

describe('setup checklist', () => {
  const open = {
    whatsapp: '300 555 0101',
    deliveryDays: [1, 2],
    deliveryWindows: [{}],
    paymentMethods: ['cash', 'transfer'],
    transferInstructions: 'Nequi 300',
  };

  it('opens the shop with its minimum: contact, days and a window, an active product, usable payments', () => {
    expect(setupChecklist({ settings: open, products: [{ active: true, images: [] }] }).ready).toBe(true);
    expect(setupChecklist({ settings: open, products: [] }).ready).toBe(false);
    expect(setupChecklist({ settings: open, products: [{ active: false, images: [{}] }] }).ready).toBe(false);
    expect(setupChecklist({ settings: { ...open, whatsapp: null }, products: [{}] }).ready).toBe(false);
    expect(setupChecklist({ settings: { ...open, deliveryWindows: [] }, products: [{}] }).ready).toBe(false);
    // Transfer offered without the account's details: a shopper could not pay.
    expect(setupChecklist({ settings: { ...open, transferInstructions: ' ' }, products: [{}] }).ready).toBe(false);
    expect(
      setupChecklist({ settings: { ...open, paymentMethods: ['cash'], transferInstructions: null }, products: [{}] })
        .ready,
    ).toBe(true);
  });

  it('marks the logo and a product photo done only when they exist', () => {
    const items = (s: object, p: object[]) =>
      Object.fromEntries(setupChecklist({ settings: { ...open, ...s }, products: p }).items.map((i) => [i.id, i.done]));
    expect(items({}, [{ images: [] }])).toEqual({
      logoAndContact: false,
      delivery: true,
      product: false,
      payments: true,
    });
    expect(items({ logo: { path: 'x' } }, [{ images: [{}] }])).toMatchObject({ logoAndContact: true, product: true });
  });
});
