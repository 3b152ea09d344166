import { useCallback, useEffect, useRef, useState } from 'react';
import { useStore } from 'zustand';
import { cartApi, refusedProduct, saveLines, type ServerCart } from '../../lib/api/cart-api';
import { getCartStore } from '../../lib/cart-store';
import { ApiError } from '../../lib/api/http';

/**
 * The lines whose unit price moved between two readings of the cart (the bakery repriced a product while
 * the cart was open), so the page can say so next to the new price.
 */
export function repricedLines(before: ServerCart | null, after: ServerCart): Set<string> {
  const was = new Map((before?.items ?? []).map((l) => [l.productId, l.unitPrice]));
  return new Set(
    after.items
      .filter((l) => l.available && was.has(l.productId) && was.get(l.productId) !== l.unitPrice)
      .map((l) => l.productId),
  );
}

export type SaveState = { kind: 'idle' } | { kind: 'saving' } | { kind: 'error'; message: string };

const SAVE_DELAY_MS = 300;

/**
 * The local cart kept saved on the server, which prices it: every change of lines is saved after a
 * short pause, and the page shows the server's answer. A product the server refuses (taken off, unknown) is
 * dropped from the lines with a notice.
 */
export function useServerCart(companyId: string | null) {
  const lines = useStore(getCartStore(), (s) => s.lines);
  const [cart, setCart] = useState<ServerCart | null>(null);
  const [state, setState] = useState<SaveState>({ kind: 'idle' });
  const [notice, setNotice] = useState<string | null>(null);
  const [repriced, setRepriced] = useState<ReadonlySet<string>>(new Set());
  const latest = useRef(0);
  const pending = useRef<Promise<ServerCart | null> | null>(null);
  const known = useRef<ServerCart | null>(null);

  const save = useCallback(async (): Promise<ServerCart | null> => {
    const current = getCartStore().getState().lines;
    if (!companyId || current.length === 0) return null;
    const run = ++latest.current;
    setState({ kind: 'saving' });
    try {
      const saved = await saveLines(companyId, current, known.current);
      const moved = repricedLines(known.current, saved);
      if (moved.size) setRepriced((was) => new Set([...was, ...moved]));
      known.current = saved;
      if (run === latest.current) {
        setCart(saved);
        setState({ kind: 'idle' });
      }
      return saved;
    } catch (err) {
      const refused = refusedProduct(err, current);
      if (refused) {
        setNotice('Uno de los productos ya no está disponible y lo quitamos de tu carrito.');
        getCartStore().getState().remove(refused);
        return null;
      }
      if (run === latest.current) {
        setState({
          kind: 'error',
          message: err instanceof ApiError ? err.userMessage : 'No pudimos guardar tu carrito. Intenta de nuevo.',
        });
      }
      throw err;
    }
  }, [companyId]);

  useEffect(() => {
    if (lines.length === 0) {
      setCart(null);
      setState({ kind: 'idle' });
      return;
    }
    const timer = setTimeout(() => {
      pending.current = save().catch(() => null);
    }, SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [lines, save]);

  /** Saves now (the continue button): resolves to the saved cart, or null when it could not be saved. */
  const flush = useCallback(async () => {
    await pending.current;
    return save().catch(() => null);
  }, [save]);

  /**
   * Reads the saved cart again, priced as the settings and the catalogue are now (a new fee, a product
   * repriced or taken off while the cart is open).
   */
  const refresh = useCallback(async () => {
    const saved = known.current;
    if (!saved || getCartStore().getState().cartId !== saved.id) return;
    try {
      const fresh = await cartApi.read(saved.id);
      const moved = repricedLines(known.current, fresh);
      if (moved.size) setRepriced((was) => new Set([...was, ...moved]));
      known.current = fresh;
      setCart(fresh);
    } catch {
      // The next change of lines saves and prices the cart again.
    }
  }, []);

  return {
    lines,
    cart,
    repriced,
    refresh,
    state,
    notice,
    dismissNotice: () => setNotice(null),
    flush,
    retry: () => void save().catch(() => null),
  };
}
