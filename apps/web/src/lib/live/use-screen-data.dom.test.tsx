import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveHandlers, LiveStream } from './live-stream';

/** The shared stream, as a test drives it: the handlers of the subscriptions to each resource. */
const subscriptions = new Map<string, Set<LiveHandlers>>();
const unsubscribed: string[] = [];
const stream: LiveStream = {
  subscribe: (companyId, resource, handlers) => {
    const key = `${companyId}/${resource}`;
    const all = subscriptions.get(key) ?? new Set();
    subscriptions.set(key, all.add(handlers));
    return () => {
      all.delete(handlers);
      if (!all.size) subscriptions.delete(key);
      unsubscribed.push(resource);
    };
  },
  reconnect: () => undefined,
  onUnauthorized: () => () => undefined,
  close: () => undefined,
};
vi.mock('./live-stream', () => ({ getLiveStream: () => stream }));

/** What the stream says to every subscription of `key` (`company/resource`). */
const to = (key: string): LiveHandlers => ({
  onChanges: (changes) => subscriptions.get(key)?.forEach((h) => h.onChanges(changes)),
  onReset: () => subscriptions.get(key)?.forEach((h) => h.onReset()),
});

const { readingParams, samePathSameData, usePartData, useScreenData } = await import('./use-screen-data');

/** A loader that answers each read with the day its address asks for and how many reads came before. */
function countingLoader() {
  let reads = 0;
  const held: (() => void)[] = [];
  let hold = false;
  const loader = async ({ request }: { request: Request }) => {
    reads += 1;
    const read = reads;
    if (hold) {
      // Only the next read waits.
      hold = false;
      await new Promise<void>((resolve) => held.push(resolve));
    }
    return `${new URL(request.url).searchParams.get('date')} · lectura ${read}`;
  };
  return {
    loader,
    reads: () => reads,
    holdNext: () => (hold = true),
    release: () => {
      for (const resolve of held.splice(0)) resolve();
    },
  };
}

function mount(loader: (args: { request: Request }) => Promise<string>) {
  function Screen() {
    const { data, reload } = useScreenData(loader, 'c1', ['orders', 'ingredients']);
    return (
      <>
        <p data-testid="shown">{data}</p>
        <button type="button" onClick={reload}>
          Reintentar
        </button>
      </>
    );
  }
  const router = createMemoryRouter([{ path: '/day', loader, Component: Screen }], {
    initialEntries: ['/day?date=2026-11-30'],
  });
  const view = render(<RouterProvider router={router} />);
  return { router, view };
}

const shown = () => screen.getByTestId('shown').textContent;

afterEach(() => {
  subscriptions.clear();
  unsubscribed.length = 0;
});

describe("a screen's data", () => {
  it('is read again by its own loader when a resource it follows changes, once for changes that come together', async () => {
    const reads = countingLoader();
    mount(reads.loader);
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 1'));
    // The screen subscribes in an effect, after it is first shown.
    await waitFor(() => expect([...subscriptions.keys()].sort()).toEqual(['c1/ingredients', 'c1/orders']));

    act(() => {
      to('c1/orders').onChanges([]);
      to('c1/ingredients').onChanges([]);
      to('c1/orders').onChanges([]);
    });
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 2'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reads.reads()).toBe(2);

    // A reset (changes were missed) reads it again too.
    act(() => to('c1/orders').onReset());
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 3'));
  });

  it('keeps a navigation’s answer over a live read of the address it left, answered later', async () => {
    const reads = countingLoader();
    const { router } = mount(reads.loader);
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 1'));

    // A read of the first day, held; meanwhile the screen moves to the next day.
    reads.holdNext();
    await act(async () => screen.getByRole('button', { name: 'Reintentar' }).click());
    expect(reads.reads()).toBe(2);
    await act(() => router.navigate('/day?date=2026-12-01'));
    await waitFor(() => expect(shown()).toBe('2026-12-01 · lectura 3'));
    // The first day's answer comes now: it is not put on the second day's screen.
    await act(async () => reads.release());
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(shown()).toBe('2026-12-01 · lectura 3');
  });

  it('stops following when the screen closes', async () => {
    const reads = countingLoader();
    const { view } = mount(reads.loader);
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 1'));
    await waitFor(() => expect(subscriptions.size).toBe(2));
    // (The screens of the tests before closed after them.)
    unsubscribed.length = 0;
    view.unmount();
    expect(unsubscribed.sort()).toEqual(['ingredients', 'orders']);
    expect(subscriptions.size).toBe(0);
  });
});

describe("a screen's parts", () => {
  /** A list screen (`?q=`) with a frame read on entering it and a panel read for `?open=`. */
  function mountParts() {
    const reads = { list: 0, frame: 0, panel: 0 };
    const list = async ({ request }: { request: Request }) =>
      `lista ${new URL(request.url).searchParams.get('q') ?? ''} · lectura ${++reads.list}`;
    const frame = async () => `marco · lectura ${++reads.frame}`;
    const panel = async ({ request }: { request: Request }) =>
      `panel ${new URL(request.url).searchParams.get('open') ?? '-'} · lectura ${++reads.panel}`;
    function Screen() {
      const shownList = useScreenData(list, 'c1', ['orders'], ['open']).data;
      const shownFrame = usePartData('s', 'frame', frame, 'c1', ['settings']).data;
      const shownPanel = usePartData('s', 'panel', panel, 'c1', ['products', 'orders'], {
        reads: ['open'],
        relevant: (resource, changes, at) =>
          resource === 'products' || changes.some((c) => c.doc.id === at.searchParams.get('open')),
      }).data;
      return (
        <>
          <p data-testid="list">{shownList}</p>
          <p data-testid="frame">{shownFrame}</p>
          <p data-testid="panel">{shownPanel}</p>
        </>
      );
    }
    const listAlone = ({ currentUrl, nextUrl }: { currentUrl: URL; nextUrl: URL }) =>
      currentUrl.searchParams.get('q') !== nextUrl.searchParams.get('q');
    const router = createMemoryRouter(
      [
        {
          id: 's.frame',
          path: '/pedidos',
          loader: frame,
          shouldRevalidate: samePathSameData,
          children: [
            {
              id: 's.panel',
              loader: panel,
              shouldRevalidate: readingParams(['open']),
              children: [{ id: 's', index: true, loader: list, shouldRevalidate: listAlone, Component: Screen }],
            },
          ],
        },
      ],
      { initialEntries: ['/pedidos?q=pan'] },
    );
    render(<RouterProvider router={router} />);
    const text = (id: string) => screen.getByTestId(id).textContent;
    return { router, reads, text };
  }

  it('are each read when their own part of the address changes, not on a change of the view', async () => {
    const { router, reads, text } = mountParts();
    await waitFor(() => expect(text('list')).toBe('lista pan · lectura 1'));
    expect([text('frame'), text('panel')]).toEqual(['marco · lectura 1', 'panel - · lectura 1']);

    // A new search reads the list alone.
    await act(() => router.navigate('/pedidos?q=torta'));
    await waitFor(() => expect(text('list')).toBe('lista torta · lectura 2'));
    expect(reads).toMatchObject({ frame: 1, panel: 1 });

    // Opening the panel reads the panel alone.
    await act(() => router.navigate('/pedidos?q=torta&open=7'));
    await waitFor(() => expect(text('panel')).toBe('panel 7 · lectura 2'));
    expect(reads).toMatchObject({ list: 2, frame: 1 });
  });

  it('follow the stream each for what it follows', async () => {
    const { router, reads, text } = mountParts();
    await waitFor(() => expect(text('list')).toBe('lista pan · lectura 1'));
    await act(() => router.navigate('/pedidos?q=pan&open=3'));
    await waitFor(() => expect(text('panel')).toBe('panel 3 · lectura 2'));
    await waitFor(() => expect(subscriptions.has('c1/products')).toBe(true));

    act(() => to('c1/products').onChanges([]));
    await waitFor(() => expect(text('panel')).toBe('panel 3 · lectura 3'));
    act(() => to('c1/settings').onChanges([]));
    await waitFor(() => expect(text('frame')).toBe('marco · lectura 2'));
    expect(reads.list).toBe(1);
  });

  it('read again only for the changes that concern them, and for a reset', async () => {
    const { router, reads, text } = mountParts();
    await act(() => router.navigate('/pedidos?q=pan&open=3'));
    await waitFor(() => expect(text('panel')).toBe('panel 3 · lectura 2'));
    await waitFor(() => expect(subscriptions.has('c1/orders')).toBe(true));
    const order = (id: string) => ({ type: 'modified' as const, doc: { id } });

    // Another order changed: the list follows it, the panel (order 3) does not.
    act(() => to('c1/orders').onChanges([order('8')]));
    await waitFor(() => expect(reads.list).toBe(2));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reads.panel).toBe(2);
    // Its own order changed, among others: one read.
    act(() => to('c1/orders').onChanges([order('8'), order('3')]));
    await waitFor(() => expect(text('panel')).toBe('panel 3 · lectura 3'));
    // The stream could not resume: whatever changed, it reads again.
    act(() => to('c1/orders').onReset());
    await waitFor(() => expect(text('panel')).toBe('panel 3 · lectura 4'));
  });
});
