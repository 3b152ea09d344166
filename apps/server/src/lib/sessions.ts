/**
 * Whether a token issued at `iat` (seconds) predates the end of the user's sessions (a password change or a
 * sign-out everywhere). Read by the door (plugins/auth.ts) and the live feed alike.
 */
export function issuedBeforeSessionsEnded(iat: number | undefined, sessionsValidFrom: Date | null): boolean {
  return sessionsValidFrom !== null && (iat ?? 0) * 1000 < sessionsValidFrom.getTime();
}
