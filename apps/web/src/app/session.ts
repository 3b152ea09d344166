import type { GuardUser } from './guard';
import { useHydrated } from '../lib/use-hydrated';
import type { HeaderAccount } from '../components/site-header';
import type { MenuCollection, MenuProduct } from '../components/products-menu';
import { accountPath, logoPath } from './guard';

/** The signed-in user as the guard reads it, once the start-up auth check is done (null: signed out). */
export async function sessionUser(): Promise<GuardUser | null> {
  return null;
}

export interface HeaderSession {
  logoHref: string;
  account: HeaderAccount | null | undefined;
  cartCount: number | undefined;
  menu: { collections: MenuCollection[]; products: MenuProduct[] } | null;
  logout: () => void;
}

/** What the header shows of the session: nothing user-specific until hydrated (design §1). */
export function useHeaderSession(_companyId: string | null): HeaderSession {
  const hydrated = useHydrated();
  const user: GuardUser | null = null;
  return {
    logoHref: logoPath(user),
    account: hydrated ? (user ? { label: 'Usuario', accountHref: accountPath(user) } : null) : undefined,
    cartCount: undefined,
    menu: null,
    logout: () => {},
  };
}

/** The signed-in user, undefined until hydrated and checked. */
export function useSessionUser(): GuardUser | null | undefined {
  return useHydrated() ? null : undefined;
}
