import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { AreaLayout } from '../components/area-layout';
import { paths } from '../config/paths';
import { AREA_LABELS, navItems } from './navigation';
import type { Area } from '@hornada/domain/areas';
import { hasCapability } from '@hornada/domain/capabilities';
import { CompanySwitcher } from './company-switcher';
import { onSessionEnded, useSessionUser } from './session';

/** An area's layout with the links its user may open. Loaded only in the browser, with the area. */
export function layoutFor(area: Area) {
  return function GuardedAreaLayout() {
    const user = useSessionUser();
    const navigate = useNavigate();
    // The server ended this session (a disabled account): off the private screen at once, with a notice.
    useEffect(() => onSessionEnded(() => void navigate(paths.loginSessionEnded(), { replace: true })), [navigate]);
    // Every screen of the driver's area (the profile too) registers the shared phone's sign-out check
    // (moves not sent, the kept route), not only those that load it themselves.
    useEffect(() => {
      if (area === 'driver') void import('../features/delivery/driver-sign-out').catch(() => undefined);
    }, []);
    const layout = <AreaLayout label={AREA_LABELS[area]} items={navItems(area, user ?? null)} />;
    // A system admin acts on any bakery: the dashboard says which, and switches (issue 25).
    if (area !== 'dashboard' || !user || !hasCapability(user.role, 'companies:all')) return layout;
    return (
      <>
        <CompanySwitcher />
        {layout}
      </>
    );
  };
}
