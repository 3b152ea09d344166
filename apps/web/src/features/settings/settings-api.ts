import type { Settings, SettingsInput } from '@hornada/domain/schemas/settings';
import { http } from '../../lib/http';

/** A window booked past its new capacity: the save kept the orders and says so (the server's `warnings`). */
export interface CapacityWarning {
  path: string;
  windowId: string;
  date: string;
  booked: number;
  capacity: number;
}

/** Each window's busiest upcoming day (orders not cancelled). */
export interface WindowBooking {
  windowId: string;
  date: string;
  booked: number;
}

const base = (companyId: string) => `/companies/${encodeURIComponent(companyId)}/settings`;

/** The settings document of one company (docs/design.md §3: GET and PATCH, no id). */
export const settingsApi = {
  get: (companyId: string, signal?: AbortSignal) => http.get<Settings>(base(companyId), { signal }),
  bookings: (companyId: string, signal?: AbortSignal) =>
    http.get<WindowBooking[]>(`${base(companyId)}/window-bookings`, { signal }),
  /** Changes the fields given; the answer carries the saved document and its capacity warnings. */
  async patch(companyId: string, body: Partial<SettingsInput>) {
    const answer = (await http.send('PATCH', base(companyId), body)) as {
      data: Settings;
      warnings?: CapacityWarning[];
    };
    return { settings: answer.data, warnings: answer.warnings ?? [] };
  },
};
