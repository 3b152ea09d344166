import { useEffect, useState } from 'react';
import type { MenuCollection, MenuProduct } from '../components/products-menu';
import { storefrontApi } from '../lib/api/storefront-api';

export interface Menu {
  collections: MenuCollection[];
  products: MenuProduct[];
}

const EMPTY: Menu = { collections: [], products: [] };

/** Menus read this visit, by bakery: moving between screens shows it at once (and keeps its identity). */
const read = new Map<string, Menu>();

/**
 * The Products menu of the back office's bakery when it is not the host's shop (the office shows
 * the user's bakery, never the market's): its active collections and products, read in the browser. Empty
 * while read or without a company; the header keeps it live from there.
 */
export function useOfficeMenu(companyId: string | null): Menu {
  const [menu, setMenu] = useState<Menu>(() => (companyId ? (read.get(companyId) ?? EMPTY) : EMPTY));
  useEffect(() => {
    if (!companyId) return setMenu(EMPTY);
    const known = read.get(companyId);
    if (known) return setMenu(known);
    setMenu(EMPTY);
    let live = true;
    const api = storefrontApi(null);
    Promise.all([api.collections(companyId), api.products(companyId)])
      .then(([collections, products]) => {
        // Staff read every record: the menu lists what a shopper can open.
        const next: Menu = {
          collections: collections.filter((c) => c.active).map(({ id, name }) => ({ id, name })),
          products: products
            .filter((p) => p.active)
            .map(({ id, name, collectionId }) => ({ id, name, collectionId: collectionId ?? null })),
        };
        read.set(companyId, next);
        if (live) setMenu(next);
      })
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [companyId]);
  return menu;
}
