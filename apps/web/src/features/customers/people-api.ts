import { endpoints } from '../../lib/api/endpoints';

/** The people screens' calls beyond the users resource. */
export const peopleApi = {
  /** Sends a pending invitation again (a new link; the older ones stop working). */
  resendInvitation: endpoints.resendInvitation,
};
