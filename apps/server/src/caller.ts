import type { Role } from '@hornada/domain';

/** The authenticated caller, read from the users table on each request (docs/design.md §1 identity). */
export interface Caller {
  uid: string;
  email: string;
  name: string;
  role: Role;
  companyId: string | null;
  /**
   * When the bearer id token was issued (its `iat`, seconds): a password change or a sign-out
   * everywhere refuses tokens issued before it. Absent for callers the server makes itself.
   */
  tokenIssuedAt?: number;
}
