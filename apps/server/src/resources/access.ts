import {
  actorFields,
  reachesCompany,
  grantOf,
  publicFields,
  writableFieldsOf,
  type Action,
  type FieldGrant,
  type Grant,
  type ResourceName,
} from '@hornada/domain';
import type { Caller } from '../context';
import { forbidden, notFound, unauthenticated } from '../lib/errors';
import { lineRef, type Actor } from './actor';

/** How a caller reads a resource of a company: the public records and fields, or through its grant. */
export type ReadAccess = 'public' | Grant;

const VERBS: Record<Action, string> = { read: 'read', create: 'create', update: 'change', delete: 'delete' };

/**
 * Who reads what, from the permission table (docs/design.md §4). Another company's private data is a 404, never
 * a 403, so its existence is not confirmed; public resources of any company stay readable by anyone.
 */
export function readAccess(resource: ResourceName, caller: Caller | null, companyId: string): ReadAccess {
  if (caller && reachesCompany(caller, companyId)) {
    const grant = grantOf(caller.role, resource, 'read');
    if (grant) return grant;
  }
  if (publicFields(resource)) return 'public';
  if (!caller) throw unauthenticated();
  if (!reachesCompany(caller, companyId)) throw notFound();
  throw forbidden(`Your role cannot read ${resource}`);
}

/** What a write may do: its actor, the rows it reaches, the fields it may write. */
export interface WriteAuth {
  actor: Actor;
  /** The user whose row rules apply (a user under its role's grants), else null: the whole company. */
  user: Caller | null;
  grant: Grant;
  fields: FieldGrant;
  /** The one record the write may touch (a user's own account). */
  onlyId?: string;
}

/**
 * The actor's rights for a write, from the permission table: a user under its role's grants (401 / 404
 * for another company / 403 for its role), or any other actor under its own line (403 outside it).
 * `companyId` null is a record of no company (an account before its bakery): only a line reaches it.
 */
export function writeAccess(
  resource: ResourceName,
  actor: Actor | null,
  companyId: string | null,
  action: Exclude<Action, 'read'>,
): WriteAuth {
  if (!actor) throw unauthenticated();
  const line = lineRef(actor);
  if (!line) {
    // A user under its role's grants.
    if (actor.kind !== 'user') throw unauthenticated();
    if (companyId === null || !reachesCompany(actor, companyId)) throw notFound();
    const grant = grantOf(actor.role, resource, action);
    if (!grant) throw forbidden(`Your role cannot ${VERBS[action]} ${resource}`);
    return { actor, user: actor, grant, fields: writableFieldsOf(actor.role, resource) ?? 'all' };
  }
  const fields = actorFields(line, resource, action);
  if (!fields) throw forbidden(`This ${actor.kind} cannot ${VERBS[action]} ${resource}`);
  if (actor.kind === 'user' && actor.via === 'account') {
    // Its own account only, in whatever company it is (none before its bakery).
    if (companyId !== actor.companyId) throw notFound();
    return { actor, user: null, grant: 'company', fields, onlyId: actor.uid };
  }
  return { actor, user: null, grant: 'company', fields };
}

/** Only the fields of the public set (guests, customers, the public cache and the public stream). */
export function publicView(resource: ResourceName, doc: Record<string, unknown>): Record<string, unknown> {
  const fields = publicFields(resource);
  if (!fields) return {};
  const out: Record<string, unknown> = {};
  for (const f of fields) if (f in doc) out[f] = doc[f];
  return out;
}
