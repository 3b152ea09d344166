import type { CapacityWarning, WindowBooking } from '@hornada/domain/schemas/settings';
import { endpoints } from '../../lib/api/endpoints';

export type { CapacityWarning, WindowBooking };

/** The settings document of one company (docs/design.md §3: GET and PATCH, no id). */
export const settingsApi = {
  get: endpoints.settings,
  bookings: endpoints.windowBookings,
  patch: endpoints.patchSettings,
};
