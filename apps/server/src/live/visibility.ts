import type { Caller } from '../context';
import type { UserDirectory } from '../resources/user-directory';
import { isResourceName, reachesCompany, type ResourceName } from '@hornada/domain';
import { issuedBeforeSessionsEnded } from '../lib/sessions';
import { publicView, readAccess, type ReadAccess } from '../resources/access';
import type { ResourceDefinition } from '../resources/definition';
import type { Change } from '../db/change-log';
import type { LogRow, RowViews, Visibility } from './delivery';

/** A removal says only which record to take out. */
const removed = (c: Change): Change => ({ type: 'removed', doc: { id: c.doc.id, companyId: c.doc.companyId } });

/**
 * What every reader of one log row receives, each distinct view built once: every guest shares one, every
 * caller whose role reads the whole company shares the row itself, and callers under a row rule (a
 * driver's assigned orders) share a view with those whose records pass the same way. Delivery serialises
 * each distinct view once, so the cost of an event grows with its views, not with its subscribers.
 */
class RowViewsOf implements RowViews {
  /** Read access by `role, reaches the row's company` (all a read access depends on); null: none. */
  private readonly access = new Map<string, ReadAccess | null>();
  private readonly byOutcome = new Map<string, Change[]>();
  private guest: ReadAccess | null | undefined;
  private publicChanges: Change[] | undefined;

  constructor(
    private readonly row: LogRow,
    private readonly resource: ResourceName,
    private readonly def: ResourceDefinition | undefined,
  ) {}

  of(caller: Caller | null): Change[] | null {
    const access = this.accessOf(caller);
    if (access === null) return null;
    if (access === 'public') return (this.publicChanges ??= this.publicView());
    const rule = access === 'company' || !caller ? undefined : this.def?.rows?.[access];
    if (!rule) return this.row.changes;
    // Per change: kept, sent as removed (a record that left the reader's scope may be on its screen), or
    // left out (a new one it may not read, or the deletion of one never in its scope, tells it nothing).
    let outcome: string = access;
    for (const c of this.row.changes) outcome += rule.test(caller!, c.doc) ? 'k' : c.type === 'modified' ? 'r' : '-';
    let view = this.byOutcome.get(outcome);
    if (!view) {
      view = [];
      for (const c of this.row.changes) {
        if (rule.test(caller!, c.doc)) view.push(c);
        else if (c.type === 'modified') view.push(removed(c));
      }
      this.byOutcome.set(outcome, view);
    }
    return view;
  }

  private accessOf(caller: Caller | null): ReadAccess | null {
    if (caller === null) return this.guest === undefined ? (this.guest = this.readAccess(null)) : this.guest;
    const key = `${caller.role}\u0000${reachesCompany(caller, this.row.companyId) ? 1 : 0}`;
    let access = this.access.get(key);
    if (access === undefined) {
      access = this.readAccess(caller);
      this.access.set(key, access);
    }
    return access;
  }

  private readAccess(caller: Caller | null): ReadAccess | null {
    try {
      return readAccess(this.resource, caller, this.row.companyId);
    } catch {
      return null;
    }
  }

  /** The public field set of the public records; a record that stops being public is `removed`. */
  private publicView(): Change[] {
    const out: Change[] = [];
    for (const c of this.row.changes) {
      const isPublic = !this.def?.publicRecords || this.def.publicRecords.test(c.doc);
      if (c.type !== 'removed' && isPublic)
        out.push({ type: c.type, doc: { id: c.doc.id, ...publicView(this.resource, c.doc) } });
      // An inactive product's id is no secret.
      else if (c.type !== 'added') out.push(removed(c));
    }
    return out;
  }
}

const NOTHING: RowViews = { of: () => null };

/**
 * The one place that decides what a subscriber receives (docs/design.md §3): the permission table's read rules,
 * as for a list read, applied to each event. A signed-in stream reads as its user's current state (the
 * user directory, kept exact by the change log); delivery asks again whenever the log records a change
 * to that user, so a role change, a disabled account or ended sessions bite at the next event.
 */
export function createVisibility(users: UserDirectory, definitions: readonly ResourceDefinition[]): Visibility {
  const defs = new Map(definitions.map((d) => [d.name as string, d]));
  return {
    async caller(uid, tokenIssuedAt) {
      const user = await users.get(uid);
      if (!user || user.disabled || user.deleted) return 'close';
      if (issuedBeforeSessionsEnded(tokenIssuedAt ?? undefined, user.sessionsValidFrom)) return 'close';
      return { uid: user.uid, email: user.email, name: user.name, role: user.role, companyId: user.companyId };
    },
    row(row) {
      if (!isResourceName(row.resource)) return NOTHING;
      return new RowViewsOf(row, row.resource, defs.get(row.resource));
    },
  };
}
