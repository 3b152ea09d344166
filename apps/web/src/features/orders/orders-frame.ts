import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import { dayInZone } from '@hornada/domain/days';
import type { ShopSetup } from '@hornada/domain/schemas/answers';
import { loaderCompanyId } from '../../lib/api/screen-read';
import { storefrontApi } from '../../lib/api/storefront-api';
import { authStore } from '../../lib/auth/auth-store';
import { samePathSameData } from '../../lib/live/use-screen-data';
import type { WindowDef } from './order-view';
import { readSetup } from './setup-checklist';
import { readToday, type TodayFigures } from './today-strip';

export interface CompanyClock {
  timeZone: string;
  windows: WindowDef[];
}

/** The default zone and no windows: what a bakery's clock is when its settings cannot be read. */
export const DEFAULT_CLOCK: CompanyClock = { timeZone: DEFAULT_TIME_ZONE, windows: [] };

/** The company's time zone and delivery windows (its public settings); the default clock if they cannot be read. */
function readClock(companyId: string): Promise<CompanyClock> {
  return storefrontApi(null)
    .settings(companyId)
    .then((s) => ({ timeZone: s.timeZone ?? DEFAULT_TIME_ZONE, windows: s.deliveryWindows ?? [] }))
    .catch(() => DEFAULT_CLOCK);
}

export interface OrdersFrame {
  clock: CompanyClock;
  /** Today's figures (the strip), for the day it was when read; null for a role that does not read reports. */
  figures: Promise<TodayFigures> | null;
  setup: Promise<ShopSetup | null>;
}

/**
 * What the orders screen shows around its list, read on entering the screen and not again when the list's view
 * changes (a search is a navigation): the bakery's clock, the owner's glance at today and the setup checklist.
 * Each part says its own failure (the default clock, «No disponible», no checklist): the list works without them.
 * The screen waits for the clock alone (its list's days and windows); the strip and the checklist come after.
 */
export async function loader(): Promise<OrdersFrame> {
  const companyId = await loaderCompanyId().catch(() => null);
  if (!companyId) return { clock: DEFAULT_CLOCK, figures: Promise.resolve('failed'), setup: Promise.resolve(null) };
  const role = authStore.getState().user?.role ?? null;
  const setup = readSetup(companyId, role);
  const clock = await readClock(companyId);
  return { clock, figures: readToday(companyId, dayInZone(new Date(), clock.timeZone), role), setup };
}

export const shouldRevalidate = samePathSameData;
