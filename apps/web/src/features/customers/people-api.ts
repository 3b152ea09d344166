import { http } from '../../lib/api/http';
import { companyPath } from '../../lib/api/paths';

/** The people screens' calls beyond the users resource. */
export const peopleApi = {
  /** Sends a pending invitation again (a new link; the older ones stop working). */
  resendInvitation: (companyId: string, userId: string) =>
    http.post<{ invitedAt: string }>(companyPath(companyId, 'users', userId, 'invitation')),
};
