import type { Caller } from '../../context';
import { companyMember, type RequestContext } from '../../request-context';

/**
 * Who may read a company's reports: 401 without a user, 404 for another company (its existence not
 * confirmed), 403 for a role without `reports:read` in the permission table.
 */
export function reportReader(rc: RequestContext): { caller: Caller; companyId: string } {
  return companyMember(rc, 'reports:read', 'Your role cannot read reports');
}
