import type { B2bClient, Product, Settings } from './api';
import type { DayChoice } from './entry-rules';

/** What the order entry screen works from, read once when it opens (order-entry-page.tsx). */
export interface EntryData {
  settings: Settings;
  products: Product[];
  clients: B2bClient[];
  days: DayChoice[];
  /** Today in the bakery's zone: not always the first day offered (a Sunday offers Monday first). */
  today: string;
}

/** A B2B client's unpaid credit, as far as it is known. */
export type CreditLoad =
  { state: 'none' } | { state: 'loading' } | { state: 'failed' } | { state: 'ready'; clientId: string; used: number };
