import type { User } from '@hornada/domain/schemas/users';
import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

/** The signed-in user's own record and what the profile screen changes of it (docs/design.md §3). */

export type Me = User & { uid: string };

export interface MeUpdate {
  name: string;
  phone: string | null;
  addresses: User['addresses'];
}

export const getMe = (signal?: AbortSignal): Promise<Me> => http.get<Me>('/me', { signal });

export const updateMe = (input: MeUpdate): Promise<Me> => http.patch<Me>('/me', input);

/** The bakery's name, from its public settings; null when it cannot be read. */
export async function getBakeryName(companyId: string, signal?: AbortSignal): Promise<string | null> {
  const settings = await http.get<{ marketName?: unknown }>(companyPath(companyId, 'settings'), {
    signal,
  });
  return typeof settings.marketName === 'string' ? settings.marketName : null;
}

/** POST /api/identity/verify-email/resend: a new verification link; `sent` false when already verified. */
export const resendVerification = (): Promise<{ sent: boolean }> =>
  http.post<{ sent: boolean }>('/identity/verify-email/resend');
