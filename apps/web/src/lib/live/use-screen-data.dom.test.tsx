import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LiveHandlers, LiveStream } from './live-stream';

/** The shared stream, as a test drives it: the handlers of each subscription by resource. */
const subscriptions = new Map<string, LiveHandlers>();
const unsubscribed: string[] = [];
const stream: LiveStream = {
  subscribe: (companyId, resource, handlers) => {
    subscriptions.set(`${companyId}/${resource}`, handlers);
    return () => {
      subscriptions.delete(`${companyId}/${resource}`);
      unsubscribed.push(resource);
    };
  },
  reconnect: () => undefined,
  onUnauthorized: () => () => undefined,
  close: () => undefined,
};
vi.mock('./live-stream', () => ({ getLiveStream: () => stream }));

const { useScreenData } = await import('./use-screen-data');

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
      subscriptions.get('c1/orders')!.onChanges([]);
      subscriptions.get('c1/ingredients')!.onChanges([]);
      subscriptions.get('c1/orders')!.onChanges([]);
    });
    await waitFor(() => expect(shown()).toBe('2026-11-30 · lectura 2'));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(reads.reads()).toBe(2);

    // A reset (changes were missed) reads it again too.
    act(() => subscriptions.get('c1/orders')!.onReset());
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
