import { AreaLayout } from '../components/area-layout';
import { AREA_LABELS, navItems } from './navigation';
import type { Area } from '@hornada/domain/areas';
import { useSessionUser } from './session';

/** An area's layout with the links its user may open. Loaded only in the browser, with the area. */
export function layoutFor(area: Area) {
  return function GuardedAreaLayout() {
    const user = useSessionUser();
    return <AreaLayout label={AREA_LABELS[area]} items={navItems(area, user ?? null)} />;
  };
}
