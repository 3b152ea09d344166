import { AREAS, type ResourceAction, type ScreenPermission } from './areas';
import { hasCapability } from './capabilities';
import { grantOf, type Action, type ResourceName } from './policy';
import type { Role } from './roles';

/**
 * Who may open a screen (areas.ts's ScreenPermission), read against the permission table. Apart from
 * areas.ts because the storefront's first page needs the landing table but not the permission table.
 */

function splitAction(value: ResourceAction): [ResourceName, Action] {
  const [resource, action] = value.split(':') as [ResourceName, Action];
  return [resource, action];
}

/** Whether a role (null: signed out) may open a screen; system_admin opens every signed-in screen. */
export function mayOpenScreen(role: Role | null, permission: ScreenPermission): boolean {
  if (permission === 'everyone') return true;
  if (permission === 'guests') return role === null;
  if (role === null) return false;
  if (permission === 'signedIn' || role === 'system_admin') return true;
  if (!AREAS[permission.area].roles.includes(role)) return false;
  if (permission.capability && !hasCapability(role, permission.capability)) return false;
  if (!permission.needs) return true;
  const grant = grantOf(role, ...splitAction(permission.needs));
  return permission.grant ? grant === permission.grant : grant !== null;
}
