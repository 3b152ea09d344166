import ShoppingBag from 'lucide-react/icons/shopping-bag';
import { Suspense, lazy } from 'react';
import { Link } from 'react-router';
import { storefrontPaths as paths } from '../config/storefront-paths';
import { BakeryLogo } from './bakery-logo';
import { ProductsMenu, type MenuCollection, type MenuProduct } from './products-menu';

// Only a signed-in user sees the account menu, and only once the browser knows it (never in the server's HTML):
// a guest's first load does not carry it.
const AccountMenu = lazy(() => import('./account-menu').then((m) => ({ default: m.AccountMenu })));

export interface HeaderAccount {
  /** The first word of the user's name, 'Usuario' without one (docs/product.md §2). */
  label: string;
  accountHref: string;
}

/**
 * The site header (docs/product.md §2): market name (the logo, linking to the user's landing page), the Products menu,
 * the Cart link with its item count, and the login link or the account menu. `account` is undefined while
 * only the browser can know it (server render, hydration): that slot stays empty, so hydration matches.
 * `logo`: the bakery's own picture, else the generic icon, at every width. `shop`: where the menu and the cart
 * link lead (`base` '' on the host's own shop, else another host's origin); null hides both (a driver's
 * phone, the kitchen tablet).
 */
export function SiteHeader({
  marketName,
  logo = null,
  logoHref,
  shop = { base: '' },
  collections,
  products,
  cartCount,
  account,
  onLogout,
}: {
  marketName: string;
  logo?: string | null;
  logoHref: string;
  shop?: { base: string } | null;
  collections: MenuCollection[];
  products: MenuProduct[];
  cartCount: number | undefined;
  account: HeaderAccount | null | undefined;
  onLogout: () => void;
}) {
  return (
    <header className="sticky top-0 z-30 bg-amber-900 text-amber-50 shadow print:hidden">
      <div className="mx-auto flex h-14 max-w-6xl items-center gap-1 px-2 sm:gap-3 sm:px-4">
        <Link
          to={logoHref}
          aria-label={marketName ? undefined : 'Inicio'}
          className="mr-auto flex min-w-0 items-center gap-2 rounded-md py-1 pr-2 focus-visible:outline-2 focus-visible:outline-amber-200"
        >
          {logo ? (
            <BakeryLogo
              src={logo}
              name={marketName}
              size={32}
              className="size-7 shrink-0 rounded-md bg-white object-contain sm:size-8"
              fallback={genericIcon}
            />
          ) : (
            genericIcon
          )}
          {/* One line, an ellipsis where a long name ends: the menu and the account keep their place. */}
          <span className="min-w-0 truncate text-sm font-bold leading-tight sm:text-lg">{marketName}</span>
        </Link>
        <nav aria-label="Principal" className="flex items-center gap-0.5 sm:gap-2">
          {shop ? (
            <>
              <ProductsMenu collections={collections} products={products} base={shop.base} />
              <CartLink count={cartCount} base={shop.base} />
            </>
          ) : null}
          {account === undefined ? (
            <AccountSlot />
          ) : account ? (
            <Suspense fallback={<AccountSlot />}>
              <AccountMenu label={account.label} accountHref={account.accountHref} onLogout={onLogout} />
            </Suspense>
          ) : (
            <Link
              to={paths.login}
              className="rounded-md px-2 py-2 font-medium hover:bg-white/10 sm:px-3 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-200"
            >
              Ingresar
            </Link>
          )}
        </nav>
      </div>
    </header>
  );
}

const genericIcon = <img src="/favicon.svg" alt="" width={28} height={28} className="size-7 shrink-0" />;

/** The account slot's place while it is not known yet (docs/design.md §1's neutral slot). */
function AccountSlot() {
  return <span className="inline-block w-20" aria-hidden="true" />;
}

function CartLink({ count, base }: { count: number | undefined; base: string }) {
  const label = count ? `Carrito, ${count} ${count === 1 ? 'producto' : 'productos'}` : 'Carrito';
  return (
    <Link
      to={`${base}${paths.cart}`}
      aria-label={label}
      className="relative flex items-center gap-1 rounded-md px-2 py-2 font-medium hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-200 sm:px-3"
    >
      <ShoppingBag className="size-5" aria-hidden="true" />
      <span className="hidden sm:inline">Carrito</span>
      {count ? (
        <span className="absolute -right-0.5 -top-0.5 grid min-w-5 place-items-center rounded-full bg-amber-300 px-1 text-xs font-bold text-amber-950 sm:static">
          {count}
        </span>
      ) : null}
    </Link>
  );
}
