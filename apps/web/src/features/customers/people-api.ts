import { http } from '../../lib/api/http';

/** The people screens' calls beyond the users resource. */
export const peopleApi = {
  /** Sends a pending invitation again (a new link; the older ones stop working). */
  resendInvitation: (companyId: string, userId: string) =>
    http.post<{ invitedAt: string }>(
      `/companies/${encodeURIComponent(companyId)}/users/${encodeURIComponent(userId)}/invitation`,
    ),
};
