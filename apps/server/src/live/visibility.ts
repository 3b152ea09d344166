import { SETTINGS_PRIVATE_FIELDS } from '@hornada/domain';
import type { AppContext, Caller } from '../context';
import { issuedBeforeSessionsEnded } from '../modules/identity/sessions';
import type { ResourceDefinition } from '../resources/definition';
import type { Change } from './change-log';
import type { LogRow, Visibility } from './feed';

/** A removal says only which record to take out. */
const removed = (c: Change): Change => ({ type: 'removed', doc: { id: c.doc.id, companyId: c.doc.companyId } });

const SETTINGS_FULL_READ = new Set(['company_admin', 'company_staff', 'production_assistant']);

/**
 * The one function that decides what a subscriber receives (design §3): the same rules as reads,
 * applied to each event with the caller's state as it is now. A public subscriber sees an active
 * product or collection; one made inactive reaches it as `removed`.
 */
export function createVisibility(ctx: AppContext, definitions: readonly ResourceDefinition[]): Visibility {
  const defs = new Map(definitions.map((d) => [d.name, d]));
  return async (uid, row: LogRow, tokenIssuedAt) => {
    let role: string | null = null;
    let companyId: string | null = null;
    let caller: Caller | null = null;
    if (uid) {
      const user = await ctx.users.get(uid);
      if (!user || user.disabled || user.deleted) return 'close';
      if (issuedBeforeSessionsEnded(tokenIssuedAt ?? undefined, user.sessionsValidFrom)) return 'close';
      role = user.role;
      companyId = user.companyId;
      caller = { uid: user.uid, email: user.email, name: user.name, role: user.role, companyId: user.companyId };
    }
    const ownCompany = role === 'system_admin' || (companyId !== null && companyId === row.companyId);

    if (row.resource === 'settings') {
      if (ownCompany && role && (role === 'system_admin' || SETTINGS_FULL_READ.has(role))) return row.changes;
      return row.changes.map((c) => {
        const doc = { ...c.doc };
        for (const f of SETTINGS_PRIVATE_FIELDS) delete doc[f];
        return { type: c.type, doc };
      });
    }

    const def = defs.get(row.resource);
    if (!def) return null;
    if (ownCompany && caller && (caller.role === 'system_admin' || def.read.roles.includes(caller.role))) {
      const restrict = caller.role === 'system_admin' ? undefined : def.read.restrict;
      if (!restrict) return row.changes;
      const out: Change[] = [];
      for (const c of row.changes) {
        if (restrict.test(caller, c.doc)) out.push(c);
        // A record that left the reader's scope may be on its screen: take it out. A new one it may
        // not read, or the deletion of one that was never in its scope, tells it nothing.
        else if (c.type === 'modified') out.push(removed(c));
      }
      return out;
    }
    const pub = def.read.public;
    if (!pub) return null;
    const out: Change[] = [];
    for (const c of row.changes) {
      if (c.type !== 'removed' && pub.test(c.doc)) out.push(c);
      // Public: any record that stops being public is `removed` (an inactive product's id is no secret).
      else if (c.type !== 'added') out.push(removed(c));
    }
    return out;
  };
}
