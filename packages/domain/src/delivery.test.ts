import { describe, expect, it } from 'vitest';
import {
  amountToCollect,
  deliveryTotals,
  distanceMeters,
  mapLinks,
  nearestNeighbour,
  samePlace,
  unconfirmedTransfer,
  type DeliveryStop,
} from './delivery';

const at = (id: string, lat: number | null, lng: number | null) => ({
  id,
  address: { line: `Calle ${id}`, neighborhood: null, city: 'Bogotá', lat, lng },
});

describe('the route', () => {
  it('measures Bogotá distances in metres', () => {
    // One hundredth of a degree of latitude is about 1.11 km anywhere.
    expect(distanceMeters({ lat: 4.6, lng: -74.08 }, { lat: 4.61, lng: -74.08 })).toBeCloseTo(1112, -1);
  });

  it('goes each time to the stop nearest the last one, those without coordinates last in their order', () => {
    const origin = { lat: 0, lng: 0 };
    const stops = [
      at('c', 0, 0.03),
      at('x', null, null),
      at('a', 0, 0.01),
      at('w', 0, -0.015),
      at('b', 0, 0.02),
      at('y', 1, null),
    ];
    // From 0: a (0.01), then b, then c (0.01 apart each), then w (far behind), then the unlocated.
    expect(nearestNeighbour(origin, stops).map((s) => s.id)).toEqual(['a', 'b', 'c', 'w', 'x', 'y']);
  });

  it('keeps the input order on ties', () => {
    const stops = [at('first', 0, 0.01), at('second', 0, -0.01)];
    expect(nearestNeighbour({ lat: 0, lng: 0 }, stops).map((s) => s.id)).toEqual(['first', 'second']);
  });
});

describe('cash', () => {
  it('collects a cash order at the door unless staff settled it before the trip', () => {
    expect(amountToCollect({ paymentMethod: 'cash', paymentStatus: 'unpaid', total: 9000, cashCollected: null })).toBe(
      9000,
    );
    expect(amountToCollect({ paymentMethod: 'cash', paymentStatus: 'paid', total: 9000, cashCollected: null })).toBe(0);
    expect(amountToCollect({ paymentMethod: 'cash', paymentStatus: 'paid', total: 9000, cashCollected: 10000 })).toBe(
      9000,
    );
    expect(
      amountToCollect({ paymentMethod: 'transfer', paymentStatus: 'unpaid', total: 9000, cashCollected: null }),
    ).toBe(0);
  });

  it('names an unpaid transfer what it owes at the door, and nothing once paid or for other methods', () => {
    expect(unconfirmedTransfer({ paymentMethod: 'transfer', paymentStatus: 'unpaid', total: 52000 })).toBe(52000);
    expect(unconfirmedTransfer({ paymentMethod: 'transfer', paymentStatus: 'paid', total: 52000 })).toBe(0);
    expect(unconfirmedTransfer({ paymentMethod: 'cash', paymentStatus: 'unpaid', total: 52000 })).toBe(0);
    expect(unconfirmedTransfer({ paymentMethod: 'online', paymentStatus: 'pending', total: 52000 })).toBe(0);
  });

  it('sums a route: the difference only over delivered stops', () => {
    const stop = (status: DeliveryStop['status'], amount: number, collected: number | null) =>
      ({ status, amountToCollect: amount, cashCollected: collected }) as DeliveryStop;
    expect(
      deliveryTotals([
        stop('delivered', 9000, 10000),
        stop('out_for_delivery', 5000, null),
        stop('delivered', 0, null),
      ]),
    ).toEqual({
      stops: 3,
      delivered: 2,
      pending: 1,
      cashToCollect: 14000,
      cashLeft: 5000,
      cashCollected: 10000,
      difference: 1000,
    });
  });
});

describe('map links', () => {
  it('point at the coordinates when there are, else at the address', () => {
    expect(mapLinks(at('a', 4.6, -74.08))).toEqual({
      google: 'https://www.google.com/maps/search/?api=1&query=4.6%2C-74.08',
      waze: 'https://waze.com/ul?ll=4.6%2C-74.08&navigate=yes',
    });
    expect(mapLinks(at('b', null, null))?.waze).toBe('https://waze.com/ul?q=Calle%20b%2C%20Bogot%C3%A1&navigate=yes');
    expect(mapLinks({ address: null })).toBeNull();
  });
});

describe('samePlace', () => {
  const a = { line: 'Calle 45 # 13-20', neighborhood: 'Teusaquillo', city: 'Bogotá' };
  it('ignores the pin, the label and the notes, not the line, neighbourhood or city', () => {
    expect(samePlace(a, { ...a, lat: 4.6, lng: -74 } as typeof a)).toBe(true);
    expect(samePlace(a, { ...a, line: 'Calle 45 # 13-21' })).toBe(false);
    expect(samePlace(a, { ...a, neighborhood: null })).toBe(false);
    expect(samePlace(a, { ...a, city: 'Medellín' })).toBe(false);
  });
});
