import { BOOKING_HORIZON_DAYS } from './constants';
import { addDays } from './order-days';

/**
 * Bounds on what one holder may book (issue 23), pure. The server stores and compares phones by
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
