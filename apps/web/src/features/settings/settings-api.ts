import type { CapacityWarning, Settings, SettingsInput, WindowBooking } from '@hornada/domain/schemas/settings';

export type { CapacityWarning, WindowBooking };
import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

const base = (companyId: string) => companyPath(companyId, 'settings');

/** The settings document of one company (docs/design.md §3: GET and PATCH, no id). */
export const settingsApi = {
  get: (companyId: string, signal?: AbortSignal) => http.get<Settings>(base(companyId), { signal }),
  bookings: (companyId: string, signal?: AbortSignal) =>
    http.get<WindowBooking[]>(companyPath(companyId, 'settings', 'window-bookings'), { signal }),
  /** Changes the fields given; the answer carries the saved document and its capacity warnings. */
  async patch(companyId: string, body: Partial<SettingsInput>) {
    const answer = (await http.send('PATCH', base(companyId), body)) as {
      data: Settings;
      warnings?: CapacityWarning[];
    };
    return { settings: answer.data, warnings: answer.warnings ?? [] };
  },
};
