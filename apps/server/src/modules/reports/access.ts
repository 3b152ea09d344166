import { can, reachesCompany } from '@hornada/domain';
import type { Caller } from '../../context';
import { forbidden, notFound, unauthenticated } from '../../lib/errors';

/**
 * Who may read a company's reports: 401 without a user, 404 for another company (its existence not
 * confirmed), 403 for a role without `reports:read` in the permission table.
 */
export function assertReportReader(caller: Caller | null, companyId: string): asserts caller is Caller {
  if (!caller) throw unauthenticated();
  if (!reachesCompany(caller, companyId)) throw notFound();
  if (!can(caller.role, 'reports:read')) throw forbidden('Your role cannot read reports');
}
