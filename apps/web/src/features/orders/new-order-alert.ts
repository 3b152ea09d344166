import { useEffect, useRef, useState } from 'react';
import type { Order } from '@hornada/domain/schemas/orders';
import { getLiveStream } from '../../lib/live/live-stream';
import { toastStore } from '../../lib/toast-store';
import { formatMoney } from '@hornada/domain/format';
import { paidByThisChange } from './order-view';

/**
 * A new web order while the screen is open: a toast that says so (whatever the list's filters show) and, when
 * the person turned it on, a short chime made with the Web Audio API (no file to download).
 */

const SOUND_KEY = 'orders-sound';

function storage(): Storage | null {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

/** The sound toggle, remembered in this browser; off until turned on. */
export function useSoundSetting(): [boolean, (on: boolean) => void] {
  const [on, setOn] = useState(() => storage()?.getItem(SOUND_KEY) === 'on');
  const set = (next: boolean) => {
    setOn(next);
    try {
      storage()?.setItem(SOUND_KEY, next ? 'on' : 'off');
    } catch {
      // A blocked storage only forgets the choice.
    }
    // Browsers start audio only after a gesture: this click is one.
    if (next) void audio()?.resume();
  };
  return [on, set];
}

let context: AudioContext | null = null;

function audio(): AudioContext | null {
  if (context) return context;
  const Ctor = typeof window === 'undefined' ? undefined : window.AudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    return null;
  }
  return context;
}

/** Two soft notes, a fifth apart (about half a second). */
export function playChime(): void {
  const ctx = audio();
  if (!ctx) return;
  void ctx.resume().then(() => {
    const start = ctx.currentTime + 0.02;
    [659.25, 987.77].forEach((frequency, i) => {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = frequency;
      const t = start + i * 0.18;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.25, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + 0.35);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + 0.4);
    });
  });
}

/** How long the new-order toast stays (long enough to be seen from the oven). */
const NEW_ORDER_TOAST_MS = 8000;

/**
 * Follows the company's orders on the shared stream and announces each new web order, and each order
 * paid online ("Pago recibido · #1042"). `describe` writes the
 * toast's text; `open` shows the order.
 */
export function useNewOrderAlert(
  companyId: string | null,
  options: { sound: boolean; describe(order: Order): string; open(id: string): void },
): void {
  const latest = useRef(options);
  latest.current = options;
  useEffect(() => {
    if (!companyId) return;
    const seen = new Set<string>();
    // Orders announced as paid while the screen is open (the gateway may report the same payment twice).
    const paid = new Set<string>();
    return getLiveStream().subscribe(companyId, 'orders', {
      onChanges: (changes) => {
        for (const change of changes) {
          const doc = change.doc as Partial<Order> & { id: string };
          if (change.type === 'modified' && !paid.has(doc.id) && paidByThisChange(doc)) {
            paid.add(doc.id);
            const { open, sound } = latest.current;
            toastStore.getState().show({
              type: 'success',
              title: `Pago recibido · #${doc.number ?? ''}`,
              message: typeof doc.total === 'number' ? `${formatMoney(doc.total)} en línea` : 'Pago en línea',
              duration: NEW_ORDER_TOAST_MS,
              actions: [{ label: 'Ver pedido', onClick: () => open(doc.id) }],
            });
            if (sound) playChime();
          }
          if (change.type !== 'added' || doc.channel !== 'web' || seen.has(doc.id)) continue;
          seen.add(doc.id);
          const { describe, open, sound } = latest.current;
          toastStore.getState().show({
            type: 'info',
            title: `Nuevo pedido #${doc.number ?? ''}`,
            message: describe(doc as Order),
            duration: NEW_ORDER_TOAST_MS,
            actions: [{ label: 'Ver pedido', onClick: () => open(doc.id) }],
          });
          if (sound) playChime();
        }
      },
      onReset: () => undefined,
    });
  }, [companyId]);
}
