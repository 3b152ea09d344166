import { pointOf, samePlace } from '@hornada/domain';
import { AppError } from '../../../../lib/errors';
import type { OrderRow, OrderUpdate, StepResult } from '../order-update';
import { sameValue } from '../problems';

/**
 * The address's point (modules/delivery/address-placing.ts): the geocoder writes only the point it found
 * for the address as it still is, and only where nobody has placed one; a person's pin wins (`pinned`);
 * a new place drops the old point and goes back to the geocoder's queue.
 */
export function placeAddress(u: OrderUpdate): StepResult | void {
  const { current, data, out, who } = u;
  if (who.kind === 'system' && who.reason === 'geocoding') {
    const sent = data.address;
    if (current.geoSource !== null || !current.address || !sent || !samePlace(current.address, sent)) {
      throw new AppError(409, 'conflict', `Order #${current.number}'s address changed or was placed meanwhile`);
    }
    const point = pointOf({ address: sent });
    if (!point) return { drop: ['address'], set: { geoCheckedAt: u.now } };
    return { set: { geoCheckedAt: u.now, address: { ...current.address, ...point }, geoSource: 'geocoded' } };
  }
  if (!('address' in out)) return;
  const next = out.address as OrderRow['address'];
  if (!next) return { set: { geoSource: null, geoCheckedAt: null } };
  const before = current.address;
  const nextPoint = pointOf({ address: next });
  const beforePoint = before ? pointOf({ address: before }) : null;
  if (!sameValue(nextPoint, beforePoint)) {
    // A pin placed, moved or taken away: a person's; taken away, the geocoder looks again.
    return { set: nextPoint ? { geoSource: 'pinned' } : { geoSource: null, geoCheckedAt: null } };
  }
  if (!before || !samePlace(before, next)) {
    // Another place with the old point kept: the point was the old place's.
    return { set: { address: { ...next, lat: null, lng: null }, geoSource: null, geoCheckedAt: null } };
  }
}
