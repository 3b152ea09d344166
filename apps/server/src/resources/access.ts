import type { Caller } from '../context';
import { forbidden, notFound, unauthenticated } from '../lib/errors';
import type { ResourceDefinition } from './definition';

export type ReadScope = 'all' | 'public';

function sameCompany(caller: Caller, companyId: string): boolean {
  return caller.role === 'system_admin' || caller.companyId === companyId;
}

/**
 * Who reads what (design §4). Another company's private data is a 404, never a 403, so its
 * existence is not confirmed; public resources of any company stay readable by anyone.
 */
export function readScope(def: ResourceDefinition, caller: Caller | null, companyId: string): ReadScope {
  if (caller && sameCompany(caller, companyId)) {
    if (caller.role === 'system_admin' || def.read.roles.includes(caller.role)) return 'all';
  }
  if (def.read.public) return 'public';
  if (!caller) throw unauthenticated();
  if (!sameCompany(caller, companyId)) throw notFound();
  throw forbidden(`Your role cannot read ${def.name}`);
}

export function assertCanWrite(def: ResourceDefinition, caller: Caller | null, companyId: string): Caller {
  if (!caller) throw unauthenticated();
  if (!sameCompany(caller, companyId)) throw notFound();
  if (caller.role !== 'system_admin' && !def.write.includes(caller.role)) {
    throw forbidden(`Your role cannot change ${def.name}`);
  }
  return caller;
}

/** Fields the caller's role may not write but the body changes: 403 naming them. */
export function assertWritableFields(
  def: ResourceDefinition,
  caller: Caller,
  data: Record<string, unknown>,
  current: Record<string, unknown> | null,
  pathPrefix = '',
): void {
  const allowed = def.writable?.[caller.role];
  if (!allowed) return;
  const denied = Object.keys(data).filter(
    (key) =>
      !allowed.includes(key) &&
      // Sending back the value a field already has is not a change (a GET result as a PUT body).
      !(current && JSON.stringify(current[key] ?? null) === JSON.stringify(data[key] ?? null)),
  );
  if (denied.length > 0) {
    throw forbidden(
      `Your role cannot change: ${denied.join(', ')}`,
      denied.map((f) => ({ path: pathPrefix + f, message: 'Not writable by your role' })),
    );
  }
}
