import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useNavigation } from 'react-router';
import { AreaLayout } from '../components/area-layout';
import { paths } from '../config/paths';
import { AREA_LABELS, navItems } from './navigation';
import type { Area } from '@hornada/domain/areas';
import { hasCapability } from '@hornada/domain/capabilities';
import { useCompanyId } from '../components/data-table/resource-client';
import { showBackOfficeShop, type BackOfficeShop } from '../lib/back-office-shop';
import { endpoints } from '../lib/api/endpoints';
import { useSettingsChanges } from '../lib/live/use-settings-changes';
import { CompanySwitcher } from './company-switcher';
import { onSessionEnded, useSessionUser } from './session';
import { matchRoute } from './route-table';

/** How long a screen's loader may take before its title and "Cargando…" replace the screen being left. */
const PENDING_DELAY_MS = 150;

/**
 * The screen a navigation inside `area` is reading for (its loader runs before it is shown), once that takes
 * longer than PENDING_DELAY_MS: its title and what it is loading, so a click never seems to do nothing.
 */
function usePendingScreen(area: Area): { title: string; text: string } | null {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const target =
    navigation.state === 'loading' && navigation.location.pathname !== pathname
      ? matchRoute(navigation.location.pathname)
      : null;
  const pending = target && target.area === area ? { title: target.title, text: target.loading ?? 'Cargando…' } : null;
  const key = pending ? `${pending.title}|${pending.text}` : null;
  const [shown, setShown] = useState<string | null>(null);
  useEffect(() => {
    if (!key) {
      setShown(null);
      return;
    }
    const timer = setTimeout(() => setShown(key), PENDING_DELAY_MS);
    return () => clearTimeout(timer);
  }, [key]);
  return pending && shown === key ? pending : null;
}

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
    const shop = useHeaderShop(area !== 'customer', area === 'dashboard');
    const pending = usePendingScreen(area);
    const layout = (
      <AreaLayout
        label={AREA_LABELS[area]}
        items={navItems(area, user ?? null)}
        shopUrl={shop?.url ?? null}
        pending={pending}
      />
    );
    // A system admin acts on any bakery: the dashboard says which, and switches.
    if (area !== 'dashboard' || !user || !hasCapability(user.role, 'companies:all')) return layout;
    return (
      <>
        <CompanySwitcher />
        {layout}
      </>
    );
  };
}

type ShopRead = Omit<BackOfficeShop, 'shopMenu'>;

/** What was read of each bakery's shop this visit: moving between areas shows it at once. */
const shops = new Map<string, ShopRead>();

/**
 * The back office's bakery (the user's own, or the one a system admin chose), named in the site header while
 * the area is open (never the host's shop); its shop's address for the area's link.
 */
function useHeaderShop(backOffice: boolean, shopMenu: boolean): BackOfficeShop | null {
  const companyId = useCompanyId();
  const [shop, setShop] = useState<BackOfficeShop | null>(null);
  // A renamed bakery: read again (the header keeps the old name until then, never a blank).
  const [version, setVersion] = useState(0);
  useSettingsChanges(backOffice ? companyId : null, () => setVersion((v) => v + 1));
  useEffect(() => {
    if (!backOffice) return;
    const show = (read: ShopRead) => {
      const s = { ...read, shopMenu };
      setShop(s);
      showBackOfficeShop(s);
    };
    const known = companyId ? shops.get(companyId) : undefined;
    show(known ?? { companyId: companyId ?? null, name: null, url: null, logo: null });
    let live = true;
    // Read without signal (a driver's phone): read again once the connection returns.
    const again = () => setVersion((v) => v + 1);
    if (companyId && (!known || version > 0)) {
      endpoints
        .shopFace(companyId)
        .then((s) => {
          const read = { companyId, ...s };
          shops.set(companyId, read);
          if (live) show(read);
        })
        .catch(() => {
          if (live) window.addEventListener('online', again, { once: true });
        });
    }
    return () => {
      live = false;
      window.removeEventListener('online', again);
      showBackOfficeShop(null);
    };
  }, [backOffice, shopMenu, companyId, version]);
  return shop;
}
