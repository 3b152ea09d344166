import { BOOKING_HORIZON_DAYS } from './constants';
import { addDays } from './order-days';

/**
 * Bounds on what one holder may book, pure. The server stores and compares phones by
 * this key, so '+57 310 555 0101', '310-555-0101' and '3105550101' are one phone: its digits only,
 * the last ten (a Colombian number without its country code). Its SQL twin is the `phone_key`
 * column of orders (migration 0011): `right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)`.
 */
export function phoneKey(phone: string): string {
  return phone.replace(/[^0-9]/g, '').slice(-10);
}

/** The last day an order may be due, given the company's today (`YYYY-MM-DD`). */
export function lastBookableDay(today: string): string {
  return addDays(today, BOOKING_HORIZON_DAYS - 1);
}

/**
 * The places of a window with `capacity` that one network address may hold with unpaid web orders
 *: `percent` of them rounded up, at least one, so a small window is never taken
 * by one address alone (5 places: 3, leaving 2 for others) while one place can still be booked.
 */
export function windowShareOf(capacity: number, percent: number): number {
  return Math.max(1, Math.ceil((capacity * percent) / 100));
}
