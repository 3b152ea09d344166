import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { TOAST_DEFAULT_DURATION_MS, createToastStore, toastRole, type ToastTimers } from './toast-store';

describe('the toast store (docs/product.md §4) on the browser clock', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('adds a success toast from a message and removes it after 3000 ms', () => {
    const store = createToastStore();
    const id = store.getState().show('Producto guardado');
    expect(store.getState().toasts).toEqual([
      { id, message: 'Producto guardado', type: 'success', actions: [], duration: 3000 },
    ]);
    vi.advanceTimersByTime(2999);
    expect(store.getState().toasts).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(store.getState().toasts).toEqual([]);
    expect(TOAST_DEFAULT_DURATION_MS).toBe(3000);
  });

  it('keeps type, title and actions, and honours a given duration', () => {
    const store = createToastStore();
    const onClick = vi.fn();
    const id = store.getState().show({
      message: 'No se pudo guardar',
      type: 'error',
      title: 'Error',
      actions: [{ label: 'Reintentar', onClick }],
      duration: 500,
    });
    const [toast] = store.getState().toasts;
    expect(toast).toMatchObject({ id, type: 'error', title: 'Error', duration: 500 });
    toast?.actions[0]?.onClick();
    expect(onClick).toHaveBeenCalledOnce();
    vi.advanceTimersByTime(500);
    expect(store.getState().toasts).toEqual([]);
  });

  it('takes options after a message', () => {
    const store = createToastStore();
    store.getState().show('Revisa los datos', { type: 'warning', duration: 100 });
    expect(store.getState().toasts[0]).toMatchObject({ message: 'Revisa los datos', type: 'warning', duration: 100 });
  });

  it.each([0, -1, Number.POSITIVE_INFINITY, 2 ** 31])('keeps a toast of duration %d until closed', (duration) => {
    const store = createToastStore();
    const id = store.getState().show({ message: 'Sin conexión', duration });
    vi.advanceTimersByTime(24 * 60 * 60 * 1000);
    expect(store.getState().toasts.map((t) => t.id)).toEqual([id]);
    store.getState().close(id);
    expect(store.getState().toasts).toEqual([]);
  });

  it('closes one toast of several, keeps the order of the rest, and removes each after its own duration', () => {
    const store = createToastStore();
    const a = store.getState().show({ message: 'a', duration: 1000 });
    const b = store.getState().show({ message: 'b', duration: 2000 });
    const c = store.getState().show({ message: 'c', duration: 0 });
    expect(new Set([a, b, c]).size).toBe(3);
    store.getState().close(b);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['a', 'c']);
    vi.advanceTimersByTime(1000);
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['c']);
    store.getState().close('toast-unknown');
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['c']);
  });

  it('cancels the timer of a toast closed early', () => {
    const store = createToastStore();
    const id = store.getState().show('Listo');
    expect(vi.getTimerCount()).toBe(1);
    store.getState().close(id);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('tells subscribers of each change', () => {
    const store = createToastStore();
    const seen: number[] = [];
    store.subscribe((state) => seen.push(state.toasts.length));
    store.getState().show('uno');
    vi.advanceTimersByTime(3000);
    expect(seen).toEqual([1, 0]);
  });
});

describe('the toast store on injected timers', () => {
  it('schedules removal through the given clock', () => {
    const scheduled: { callback: () => void; ms: number; cleared: boolean }[] = [];
    const timers: ToastTimers = {
      set: (callback, ms) => scheduled.push({ callback, ms, cleared: false }) - 1,
      clear: (handle) => {
        const entry = scheduled[handle as number];
        if (entry) entry.cleared = true;
      },
    };
    const store = createToastStore(timers);
    store.getState().show('uno');
    const two = store.getState().show({ message: 'dos', duration: 1200 });
    expect(scheduled.map((s) => s.ms)).toEqual([3000, 1200]);
    scheduled[0]?.callback();
    expect(store.getState().toasts.map((t) => t.message)).toEqual(['dos']);
    store.getState().close(two);
    expect(scheduled[1]?.cleared).toBe(true);
    expect(scheduled[0]?.cleared).toBe(false);
  });
});

describe('toast roles', () => {
  it('announces errors and warnings as alerts, the rest as status', () => {
    expect(toastRole('error')).toBe('alert');
    expect(toastRole('warning')).toBe('alert');
    expect(toastRole('success')).toBe('status');
    expect(toastRole('info')).toBe('status');
  });
});
