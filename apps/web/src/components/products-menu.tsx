import ChevronDown from 'lucide-react/icons/chevron-down';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent, type PointerEvent } from 'react';
import { Link } from 'react-router';
import { DROPDOWN_CLOSE_DELAY_MS } from '@hornada/domain/constants';
import { storefrontPaths as paths } from '../config/storefront-paths';

export interface MenuCollection {
  id: string;
  name: string;
}
export interface MenuProduct {
  id: string;
  name: string;
  collectionId: string | null;
}

/**
 * The header's Products menu (docs/product.md §2): one entry per collection with nested links to its products. A small
 * disclosure of our own (docs/design.md §1: no UI kit on the storefront). It opens on hover and click, closes 150 ms
 * after the pointer leaves (coming back cancels that) and on scroll, toggles on tap on touch screens, and
 * works with the keyboard: Enter/Space toggle, ArrowDown/ArrowUp/Home/End move through the links, Escape
 * closes and gives focus back to the button. The links are in the server's HTML (hidden until opened).
 */
export function ProductsMenu({
  collections,
  products,
  base = '',
}: {
  collections: MenuCollection[];
  products: MenuProduct[];
  /** Another host's origin when the menu is of a shop served elsewhere (the back office's bakery). */
  base?: string;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const closeTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  // A touch starts with pointerenter too: remember it so that the tap that follows toggles, not hover-opens.
  const lastPointer = useRef<string>('mouse');

  const cancelClose = () => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
  };
  const close = useCallback((focusButton = false) => {
    if (closeTimer.current) clearTimeout(closeTimer.current);
    closeTimer.current = null;
    setOpen(false);
    if (focusButton) button.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    const onScroll = () => close();
    const onPointerDown = (e: globalThis.PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) close();
    };
    window.addEventListener('scroll', onScroll, { passive: true });
    document.addEventListener('pointerdown', onPointerDown);
    return () => {
      window.removeEventListener('scroll', onScroll);
      document.removeEventListener('pointerdown', onPointerDown);
    };
  }, [open, close]);

  useEffect(() => cancelClose, []);

  const links = () => [...(root.current?.querySelectorAll<HTMLAnchorElement>(`#${CSS.escape(panelId)} a`) ?? [])];
  const focusLink = (index: number) => {
    const all = links();
    if (all.length === 0) return;
    all[(index + all.length) % all.length]?.focus();
  };

  const onButtonKeyDown = (e: KeyboardEvent<HTMLButtonElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      setOpen(true);
      // The panel renders on the next frame when it was closed.
      requestAnimationFrame(() => focusLink(e.key === 'ArrowDown' ? 0 : -1));
    } else if (e.key === 'Escape' && open) {
      e.preventDefault();
      close(true);
    }
  };

  const onPanelKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const all = links();
    const at = all.indexOf(document.activeElement as HTMLAnchorElement);
    const moves: Record<string, number> = { ArrowDown: at + 1, ArrowUp: at - 1, Home: 0, End: -1 };
    if (e.key in moves) {
      e.preventDefault();
      focusLink(moves[e.key]!);
    } else if (e.key === 'Escape') {
      e.preventDefault();
      close(true);
    }
  };

  const onPointerEnter = (e: PointerEvent) => {
    lastPointer.current = e.pointerType;
    cancelClose();
    if (e.pointerType === 'mouse') setOpen(true);
  };
  const onPointerLeave = (e: PointerEvent) => {
    if (e.pointerType !== 'mouse') return;
    cancelClose();
    closeTimer.current = setTimeout(() => close(), DROPDOWN_CLOSE_DELAY_MS);
  };

  const byCollection = collections.map((c) => ({
    ...c,
    items: products.filter((p) => p.collectionId === c.id),
  }));

  return (
    <div
      ref={root}
      className="relative"
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
      onBlur={(e) => {
        if (!root.current?.contains(e.relatedTarget as Node | null)) close();
      }}
    >
      <button
        ref={button}
        type="button"
        className="flex items-center gap-1 rounded-md px-2 py-2 font-medium sm:px-3 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-200"
        aria-expanded={open}
        aria-controls={panelId}
        onPointerDown={(e) => (lastPointer.current = e.pointerType)}
        onClick={(e) => {
          // A key (detail 0) or a tap toggles; a mouse opened it on hover already, so its click keeps it open.
          const mouse = e.detail > 0 && lastPointer.current === 'mouse';
          setOpen((was) => (mouse ? true : !was));
        }}
        onKeyDown={onButtonKeyDown}
      >
        Productos
        <ChevronDown className={`size-4 transition-transform ${open ? 'rotate-180' : ''}`} aria-hidden="true" />
      </button>
      <div
        id={panelId}
        hidden={!open}
        onKeyDown={onPanelKeyDown}
        className="fixed inset-x-0 top-14 z-40 max-h-[calc(100vh-4rem)] overflow-y-auto border-t border-amber-900/20 bg-white text-stone-900 shadow-xl sm:absolute sm:inset-x-auto sm:right-0 sm:top-full sm:mt-1 sm:w-[36rem] sm:max-w-[90vw] sm:rounded-lg sm:border"
      >
        {byCollection.length === 0 ? (
          <p className="p-4 text-stone-600">Aún no hay productos publicados.</p>
        ) : (
          <ul className="grid gap-x-6 gap-y-4 p-4 sm:grid-cols-2">
            {byCollection.map((c) => (
              <li key={c.id}>
                <Link
                  to={`${base}${paths.collection(c.id)}`}
                  onClick={() => close()}
                  className="block rounded px-2 py-1.5 font-semibold text-amber-900 hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-700"
                >
                  {c.name}
                </Link>
                {c.items.length ? (
                  <ul className="mt-1">
                    {c.items.map((p) => (
                      <li key={p.id}>
                        <Link
                          to={`${base}${paths.product(p.id)}`}
                          onClick={() => close()}
                          className="block rounded px-2 py-1.5 text-sm text-stone-700 hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-2 focus-visible:outline-amber-700"
                        >
                          {p.name}
                        </Link>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}
