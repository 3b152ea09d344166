import type { AppContext, Caller } from '../context';
import { isResourceName } from '@hornada/domain';
import { issuedBeforeSessionsEnded } from '../lib/sessions';
import { publicView, readAccess } from '../resources/access';
import type { ResourceDefinition } from '../resources/definition';
import type { Change } from '../db/change-log';
import type { LogRow, Visibility } from './feed';

/** A removal says only which record to take out. */
const removed = (c: Change): Change => ({ type: 'removed', doc: { id: c.doc.id, companyId: c.doc.companyId } });

/**
 * The one function that decides what a subscriber receives (design §3): the permission table's read
 * rules, as for a list read, applied to each event with the caller's state as it is now. A public
 * subscriber gets the public field set of a public record; one that stops being public (an inactive
 * product) reaches it as `removed`.
 */
export function createVisibility(ctx: AppContext, definitions: readonly ResourceDefinition[]): Visibility {
  const defs = new Map(definitions.map((d) => [d.name as string, d]));
  return async (uid, row: LogRow, tokenIssuedAt) => {
    let caller: Caller | null = null;
    if (uid) {
      const user = await ctx.users.get(uid);
      if (!user || user.disabled || user.deleted) return 'close';
      if (issuedBeforeSessionsEnded(tokenIssuedAt ?? undefined, user.sessionsValidFrom)) return 'close';
      caller = { uid: user.uid, email: user.email, name: user.name, role: user.role, companyId: user.companyId };
    }
    if (!isResourceName(row.resource)) return null;
    let access: ReturnType<typeof readAccess>;
    try {
      access = readAccess(row.resource, caller, row.companyId);
    } catch {
      return null;
    }
    const def = defs.get(row.resource);
    if (access === 'public') {
      const out: Change[] = [];
      for (const c of row.changes) {
        const isPublic = !def?.publicRecords || def.publicRecords.test(c.doc);
        if (c.type !== 'removed' && isPublic)
          out.push({ type: c.type, doc: { id: c.doc.id, ...publicView(row.resource, c.doc) } });
        // Any record that stops being public is `removed` (an inactive product's id is no secret).
        else if (c.type !== 'added') out.push(removed(c));
      }
      return out;
    }
    const rule = access === 'company' || !caller ? undefined : def?.rows?.[access];
    if (!rule) return row.changes;
    const out: Change[] = [];
    for (const c of row.changes) {
      if (rule.test(caller!, c.doc)) out.push(c);
      // A record that left the reader's scope may be on its screen: take it out. A new one it may
      // not read, or the deletion of one that was never in its scope, tells it nothing.
      else if (c.type === 'modified') out.push(removed(c));
    }
    return out;
  };
}
