import { createStore, type StoreApi } from 'zustand/vanilla';

/** Toast notifications (docs/product.md §4, §9): shown at the top centre by the toast region. */

export const TOAST_DEFAULT_DURATION_MS = 3000;
/** setTimeout fires at once beyond this (2^31 − 1 ms): a longer toast stays until closed. */
const MAX_TIMER_MS = 2_147_483_647;

export type ToastType = 'success' | 'error' | 'warning' | 'info';

export interface ToastAction {
  label: string;
  onClick: () => void;
}

export interface ToastOptions {
  message: string;
  /** Default success (docs/product.md §4). */
  type?: ToastType;
  title?: string;
  actions?: readonly ToastAction[];
  /** Milliseconds until removed; default 3000; 0 or less stays until closed (docs/product.md §4). */
  duration?: number;
}

export interface Toast {
  id: string;
  message: string;
  type: ToastType;
  title?: string;
  actions: readonly ToastAction[];
  duration: number;
}

export interface ToastState {
  toasts: readonly Toast[];
  /** Shows a toast and returns its id. */
  show: (input: string | ToastOptions, options?: Omit<ToastOptions, 'message'>) => string;
  close: (id: string) => void;
}

/** The clock the store removes toasts with; tests may pass their own. */
export interface ToastTimers {
  set: (callback: () => void, ms: number) => unknown;
  clear: (handle: unknown) => void;
}

const browserTimers: ToastTimers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** How assistive technology announces a toast: errors and warnings interrupt, the rest wait their turn. */
export function toastRole(type: ToastType): 'alert' | 'status' {
  return type === 'error' || type === 'warning' ? 'alert' : 'status';
}

function durationOf(value: number | undefined): number {
  if (value === undefined || Number.isNaN(value)) return TOAST_DEFAULT_DURATION_MS;
  return value;
}

export function createToastStore(timers: ToastTimers = browserTimers): StoreApi<ToastState> {
  const pending = new Map<string, unknown>();
  let counter = 0;

  return createStore<ToastState>()((set) => {
    const close = (id: string): void => {
      if (pending.has(id)) {
        timers.clear(pending.get(id));
        pending.delete(id);
      }
      set((state) => ({ toasts: state.toasts.filter((t) => t.id !== id) }));
    };

    const show: ToastState['show'] = (input, options) => {
      const given: ToastOptions = typeof input === 'string' ? { ...options, message: input } : input;
      counter += 1;
      const toast: Toast = {
        id: `toast-${counter}`,
        message: given.message,
        type: given.type ?? 'success',
        actions: given.actions ?? [],
        duration: durationOf(given.duration),
        ...(given.title === undefined ? {} : { title: given.title }),
      };
      set((state) => ({ toasts: [...state.toasts, toast] }));
      if (toast.duration > 0 && toast.duration <= MAX_TIMER_MS) {
        pending.set(
          toast.id,
          timers.set(() => {
            pending.delete(toast.id);
            close(toast.id);
          }, toast.duration),
        );
      }
      return toast.id;
    };

    return { toasts: [], show, close };
  });
}

/** The app's one toast store. */
export const toastStore = createToastStore();
