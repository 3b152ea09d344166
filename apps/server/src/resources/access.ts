import { grantOf, publicFields, type Action, type Grant, type ResourceName } from '@hornada/domain';
import type { Caller } from '../context';
import { forbidden, notFound, unauthenticated } from '../lib/errors';

/** How a caller reads a resource of a company: the public records and fields, or through its grant. */
export type ReadAccess = 'public' | Grant;

export function sameCompany(caller: Caller, companyId: string): boolean {
  return caller.role === 'system_admin' || caller.companyId === companyId;
}

const VERBS: Record<Action, string> = { read: 'read', create: 'create', update: 'change', delete: 'delete' };

/**
 * Who reads what, from the permission table (design §4). Another company's private data is a 404, never
 * a 403, so its existence is not confirmed; public resources of any company stay readable by anyone.
 */
export function readAccess(resource: ResourceName, caller: Caller | null, companyId: string): ReadAccess {
  if (caller && sameCompany(caller, companyId)) {
    const grant = grantOf(caller.role, resource, 'read');
    if (grant) return grant;
  }
  if (publicFields(resource)) return 'public';
  if (!caller) throw unauthenticated();
  if (!sameCompany(caller, companyId)) throw notFound();
  throw forbidden(`Your role cannot read ${resource}`);
}

/** The caller and its grant for a write, or 401 / 404 (another company) / 403 (its role). */
export function writeAccess(
  resource: ResourceName,
  caller: Caller | null,
  companyId: string,
  action: Exclude<Action, 'read'>,
): { who: Caller; grant: Grant } {
  if (!caller) throw unauthenticated();
  if (!sameCompany(caller, companyId)) throw notFound();
  const grant = grantOf(caller.role, resource, action);
  if (!grant) throw forbidden(`Your role cannot ${VERBS[action]} ${resource}`);
  return { who: caller, grant };
}

/** Only the fields of the public set (guests, customers, the public cache and the public stream). */
export function publicView(resource: ResourceName, doc: Record<string, unknown>): Record<string, unknown> {
  const fields = publicFields(resource);
  if (!fields) return {};
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out;
}
