import { ExternalLink, type LucideIcon } from 'lucide-react';
import { useEffect, useRef } from 'react';
import { BACK_OFFICE_ERROR_TEXTS_ES } from '@hornada/domain/errors-back-office';
import { Link, Outlet, useLocation } from 'react-router';
import { AreaPage } from './area-page';
import { LoadingStatus } from './load-status';
import { addErrorTexts } from '../lib/api/error-texts';

// Every signed-in screen renders in this layout: the back office's error texts (orders' moves, storage) load with
// it, never with the storefront.
addErrorTexts(BACK_OFFICE_ERROR_TEXTS_ES);

export interface NavItem {
  to: string;
  label: string;
  icon: LucideIcon;
}

/**
 * The link the page at `pathname` belongs to: the longest `to` that is the path or a folder above it. Only
 * that one is current, so /dashboard/orders/production/grouped lights Producción agrupada, not Pedidos too.
 */
export function currentLink(items: readonly { to: string }[], pathname: string): string | null {
  let best: string | null = null;
  for (const { to } of items) {
    const folder = to.endsWith('/') ? to : `${to}/`;
    if ((pathname === to || pathname.startsWith(folder)) && (best === null || to.length > best.length)) best = to;
  }
  return best;
}

/**
 * The layout of a signed-in area (dashboard, driver, production, customer): a sidebar of links with icon,
 * text and active state (docs/product.md §2); on a phone the same links as a row that scrolls sideways.
 */
export function AreaLayout({
  label,
  items,
  shopUrl = null,
  pending = null,
}: {
  label: string;
  items: NavItem[];
  /** The bakery's own shop (back-office areas): a last link, to the storefront at its own address. */
  shopUrl?: string | null;
  /** A screen being read for (its loader is slow): shown with its title in place of the screen being left. */
  pending?: { title: string; text: string } | null;
}) {
  const list = useRef<HTMLUListElement>(null);
  const { pathname } = useLocation();
  const current = currentLink(items, pathname);
  // On a phone the row scrolls sideways: keep the current page's link in sight (also after a rotation).
  useEffect(() => {
    const reveal = () => {
      const row = list.current;
      const current = row?.querySelector<HTMLElement>('[aria-current="page"]');
      if (!current || !row || row.scrollWidth <= row.clientWidth) return;
      row.scrollLeft = current.offsetLeft - (row.clientWidth - current.offsetWidth) / 2;
    };
    reveal();
    window.addEventListener('resize', reveal);
    return () => window.removeEventListener('resize', reveal);
  }, [pathname]);
  return (
    <div className="mx-auto flex w-full max-w-7xl flex-col md:flex-row">
      {/* The column runs the page's whole height; the links inside it stay in view as the page scrolls. */}
      <div className="sticky top-14 z-20 md:static md:w-60 md:shrink-0 md:border-r md:border-stone-200 md:bg-white/70">
        <nav
          aria-label={label}
          className="border-b border-stone-200 bg-white md:sticky md:top-14 md:max-h-[calc(100vh-3.5rem)] md:overflow-y-auto md:border-b-0 md:bg-transparent"
        >
          <p className="hidden px-5 pb-1 pt-5 text-xs font-semibold uppercase tracking-wide text-stone-500 md:block">
            {label}
          </p>
          <ul ref={list} className="flex gap-1 overflow-x-auto px-2 py-2 md:flex-col md:overflow-visible md:px-3">
            {items.map(({ to, label: text, icon: Icon }) => (
              <li key={to} className="shrink-0">
                <Link
                  to={to}
                  aria-current={to === current ? 'page' : undefined}
                  className={`flex items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium transition focus-visible:outline-2 focus-visible:outline-amber-700 ${
                    to === current ? 'bg-amber-100 text-amber-950' : 'text-stone-700 hover:bg-stone-100'
                  }`}
                >
                  <Icon className="size-4 shrink-0" aria-hidden="true" />
                  {text}
                </Link>
              </li>
            ))}
            {shopUrl ? (
              <li className="shrink-0">
                <a
                  href={shopUrl}
                  className="flex items-center gap-2 whitespace-nowrap rounded-lg px-3 py-2 text-sm font-medium text-stone-700 transition hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-amber-700"
                >
                  <ExternalLink className="size-4 shrink-0" aria-hidden="true" />
                  Ver mi tienda
                </a>
              </li>
            ) : null}
          </ul>
        </nav>
      </div>
      <div className="min-w-0 flex-1">
        {pending ? (
          <AreaPage title={pending.title}>
            <LoadingStatus>{pending.text}</LoadingStatus>
          </AreaPage>
        ) : (
          <Outlet />
        )}
      </div>
    </div>
  );
}
