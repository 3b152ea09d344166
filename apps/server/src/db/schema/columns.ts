import { numeric, timestamp } from 'drizzle-orm/pg-core';

/** Column helpers the tables share (docs/design.md §4: timestamps with their zone, decimals to 4 places). */

export const ts = (name?: string) =>
  name ? timestamp(name, { withTimezone: true, mode: 'date' }) : timestamp({ withTimezone: true, mode: 'date' });

export const dec4 = () => numeric({ precision: 18, scale: 4, mode: 'number' });
