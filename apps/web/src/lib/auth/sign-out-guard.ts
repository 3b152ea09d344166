/**
 * What a loaded feature must settle before its user signs out (the driver's moves not sent on a
 * shared phone). The feature registers it when its screens load, so signing out needs no chunk from the
 * network (a driver without signal); false keeps the user signed in.
 */
export type SignOutGuard = (uid: string) => Promise<boolean>;

let current: SignOutGuard | null = null;

export function setSignOutGuard(guard: SignOutGuard): void {
  current = guard;
}

export const signOutGuard = (): SignOutGuard | null => current;
