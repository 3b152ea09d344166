import type { User } from '@hornada/domain/schemas/users';
import { endpoints, type Me } from '../../lib/api/endpoints';

/** The signed-in user's own record and what the profile screen changes of it (docs/design.md §3). */

export type { Me };

export interface MeUpdate {
  name: string;
  phone: string | null;
  addresses: User['addresses'];
}

export const getMe = endpoints.me;

export const updateMe = (input: MeUpdate): Promise<Me> => endpoints.updateMe(input);

/** The bakery's name, from its public settings; null when it cannot be read. */
export async function getBakeryName(companyId: string, signal?: AbortSignal): Promise<string | null> {
  const settings = await endpoints.settings(companyId, signal);
  return typeof settings.marketName === 'string' ? settings.marketName : null;
}

/** POST /api/identity/verify-email/resend: a new verification link; `sent` false when already verified. */
export const resendVerification = endpoints.resendVerification;
