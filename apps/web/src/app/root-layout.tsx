import {
  Outlet,
  useLocation,
  useNavigationType,
  isRouteErrorResponse,
  useRouteError,
  useMatches,
  useRevalidator,
  useRouteLoaderData,
  type LoaderFunctionArgs,
} from 'react-router';
import { useEffect } from 'react';
import { SiteFooter } from '../components/site-footer';
import { SiteHeader } from '../components/site-header';
import { Toaster } from '../components/toaster';
import { useBackOfficeShop } from '../lib/back-office-shop';
import { PLATFORM_NAME, speaksAsPlatform, usePageVoice } from '../lib/page-voice';
import { storefrontApi, type PublicConfig } from '../lib/api/storefront-api';
import { useSettingsChanges } from '../lib/live/use-settings-changes';
import type { MenuCollection, MenuProduct } from '../components/products-menu';
import { useOfficeMenu } from './office-menu';
import { useHeaderSession } from './session';

export interface RootData {
  config: PublicConfig;
  menu: { collections: MenuCollection[]; products: MenuProduct[] };
}

/** The header's data, on every page: the market's config and the Products menu (docs/product.md §2). */
export async function rootLoader({ context }: LoaderFunctionArgs): Promise<RootData> {
  const api = storefrontApi(context);
  const config = await api.config();
  if (!config.companyId) return { config, menu: { collections: [], products: [] } };
  const [collections, products] = await Promise.all([
    api.collections(config.companyId),
    api.products(config.companyId),
  ]);
  return {
    config,
    menu: {
      collections: collections.map(({ id, name }) => ({ id, name })),
      products: products.map(({ id, name, collectionId }) => ({ id, name, collectionId: collectionId ?? null })),
    },
  };
}

export function useRootData(): RootData {
  const data = useRouteLoaderData<RootData>('root');
  if (!data) throw new Error('The root loader has not run');
  return data;
}

/**
 * A page reached by a link opens at its top; Back and Forward (POP) keep the browser's own restoring.
 * React Router's ScrollRestoration does more but costs a kilobyte of the storefront's first load.
 */
function useScrollToTopOnNavigation() {
  const { pathname } = useLocation();
  const type = useNavigationType();
  useEffect(() => {
    if (type !== 'POP') window.scrollTo(0, 0);
  }, [pathname, type]);
}

export function RootLayout() {
  useScrollToTopOnNavigation();
  const { config, menu } = useRootData();
  // In the back office the header names the user's own bakery, not the host's shop, and its Products
  // menu and cart are that bakery's too, or absent where a shop means nothing (driver, kitchen).
  const backOffice = useBackOfficeShop();
  const hostsOffice = !backOffice || backOffice.companyId === config.companyId;
  const officeMenu = useOfficeMenu(backOffice?.shopMenu && !hostsOffice ? backOffice.companyId : null);
  const menuCompany = !backOffice ? config.companyId : backOffice.shopMenu ? backOffice.companyId : null;
  const session = useHeaderSession(menuCompany, hostsOffice ? menu : officeMenu);
  // A saved setting (the market's name, the fee, payment methods) reaches open pages: their loaders run again.
  const revalidator = useRevalidator();
  useSettingsChanges(config.companyId, () => void revalidator.revalidate());
  // While the bakery's name is read: the host's, when it is the host's bakery; else none (the logo says "Inicio").
  // An owner's page speaks as the platform, an invitation's as the bakery that invited: neither is
  // the host's shop, so its logo, Products menu and cart are not shown.
  const platform = useMatches().some((m) => speaksAsPlatform(m.handle));
  const pageVoice = usePageVoice();
  // A page speaking as the host's own shop (a shopper's invitation there) keeps the shop's header.
  const voice = platform ? PLATFORM_NAME : pageVoice === config.marketName ? null : pageVoice;
  const marketName =
    voice ??
    (!backOffice
      ? config.marketName
      : (backOffice.name ?? (backOffice.companyId === config.companyId ? config.marketName : '')));
  const logo = voice ? null : !backOffice || (hostsOffice && backOffice.name === null) ? config.logo : backOffice.logo;
  // Another host's shop is linked by its address (a full load there: its own cart); none until that is read.
  const shopBase = !backOffice || hostsOffice ? '' : backOffice.url ? backOffice.url.replace(/\/$/, '') : null;
  const shop = voice || (backOffice && !backOffice.shopMenu) ? null : shopBase === null ? null : { base: shopBase };
  return (
    <div className="flex min-h-screen flex-col bg-amber-50/40 text-stone-900">
      <a
        href="#contenido"
        className="sr-only z-50 rounded bg-white px-3 py-2 text-amber-900 focus:not-sr-only focus:fixed focus:left-2 focus:top-2"
      >
        Saltar al contenido
      </a>
      <SiteHeader
        marketName={marketName}
        logo={logo ? `/files/${logo.path}` : null}
        logoHref={session.logoHref}
        shop={shop}
        collections={session.menu.collections}
        products={session.menu.products}
        // This browser's cart is the host's shop's: its count means nothing beside another bakery's menu.
        cartCount={shop?.base === '' ? session.cartCount : undefined}
        account={session.account}
        onLogout={session.logout}
      />
      <main id="contenido" className="flex-1">
        <Outlet />
      </main>
      <SiteFooter marketName={marketName} />
      <Toaster />
    </div>
  );
}

/** A failure no page handled: said in Spanish, with a way back. */
export function RootErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  return (
    <div className="mx-auto max-w-xl px-4 py-20 text-center">
      <title>Algo salió mal</title>
      <h1 className="text-2xl font-bold text-stone-900">Algo salió mal</h1>
      <p className="mt-3 text-stone-700">
        {status === 503
          ? 'El servicio no está disponible en este momento. Intenta de nuevo en unos segundos.'
          : 'No pudimos mostrar esta página. Intenta de nuevo en un momento.'}
      </p>
      <a href="/" className="mt-6 inline-block rounded-lg bg-amber-900 px-5 py-2.5 font-semibold text-white">
        Volver al inicio
      </a>
    </div>
  );
}
