import { act, render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createResourceService, type Resource } from '../../lib/api/resource-service';
import { FakeHttp } from '../../lib/api/resource-service.fake';
import type { LiveHandlers, LiveStream } from '../../lib/live/live-stream';

/** The shared stream, as a test drives it: every subscription's handlers, by resource. */
const subscriptions: { resource: string; handlers: LiveHandlers }[] = [];
const stream: LiveStream = {
  subscribe: (_companyId, resource, handlers) => {
    const entry = { resource, handlers };
    subscriptions.push(entry);
    return () => void subscriptions.splice(subscriptions.indexOf(entry), 1);
  },
  reconnect: () => undefined,
  onUnauthorized: () => () => undefined,
  close: () => undefined,
};
vi.mock('../../lib/live/live-stream', () => ({ getLiveStream: () => stream }));

/** The API: an in-memory bakery with its brands. */
const api = new FakeHttp();
vi.mock('./resource-client', () => ({
  useCompanyId: () => 'c1',
  resourceService: (resource: string, companyId: string) => createResourceService(resource, api, { companyId }),
}));

const { readTablePage, useResourceTable } = await import('./use-resource-table');
type Brand = Resource & { name: string };
const TABLE = {
  resource: 'brands',
  config: { sortFields: ['name'], defaults: { sortBy: 'name', sortDesc: false } },
} as const;

let reads = 0;
/** The screen's loader: the page its address asks for (a failure when the API fails). */
const loader = async ({ request }: { request: Request }) => {
  reads += 1;
  try {
    return { state: 'ready' as const, data: { page: await readTablePage<Brand>(TABLE, request, 'c1') } };
  } catch {
    return { state: 'failed' as const, message: 'No pudimos cargar las marcas.' };
  }
};

function Brands() {
  const table = useResourceTable(TABLE, loader);
  return (
    <>
      <p data-testid="total">{table.total}</p>
      <ul>
        {table.items.map((b) => (
          <li key={b.id}>{b.name}</li>
        ))}
      </ul>
      {table.error ? <p role="alert">{table.error}</p> : null}
      <button type="button" onClick={() => table.setView({ page: 2 })}>
        Siguiente
      </button>
      <button type="button" onClick={() => void table.store?.getState().remove(table.items[0]!.id)}>
        Borrar la primera
      </button>
    </>
  );
}

function mount(address: string) {
  const router = createMemoryRouter([{ path: '/brands', loader, Component: Brands }], { initialEntries: [address] });
  render(<RouterProvider router={router} />);
  return router;
}

const names = () => screen.queryAllByRole('listitem').map((li) => li.textContent);
const seedBrands = (count: number) =>
  api.seed(
    '/companies/c1/brands',
    Array.from({ length: count }, (_, i) => ({ id: `b${i + 1}`, name: `Marca ${String(i + 1).padStart(2, '0')}` })),
  );
const brandsChanged = (changes: Parameters<LiveHandlers['onChanges']>[0]) =>
  act(() => {
    for (const s of subscriptions.filter((s) => s.resource === 'brands')) s.handlers.onChanges(changes);
  });

afterEach(() => {
  subscriptions.length = 0;
  reads = 0;
});

describe("a table screen's list", () => {
  it('shows the page its address asks for, and another page when the view changes', async () => {
    seedBrands(12);
    const router = mount('/brands?q=marca');
    await waitFor(() => expect(names()).toHaveLength(10));
    expect(names()[0]).toBe('Marca 01');
    expect(screen.getByTestId('total').textContent).toBe('12');

    await act(() => screen.getByRole('button', { name: 'Siguiente' }).click());
    await waitFor(() => expect(names()).toEqual(['Marca 11', 'Marca 12']));
    // The view is in the address, the search kept.
    expect(router.state.location.search).toBe('?q=marca&page=2');
  });

  it('shows a row changed elsewhere at once, then reads the page again', async () => {
    seedBrands(3);
    mount('/brands');
    await waitFor(() => expect(names()).toEqual(['Marca 01', 'Marca 02', 'Marca 03']));
    // The rows show at commit; the list store's subscription (an effect) may come a moment later.
    await waitFor(() => expect(subscriptions.filter((s) => s.resource === 'brands')).toHaveLength(2));
    const before = reads;

    brandsChanged([{ type: 'modified', doc: { id: 'b2', name: 'Marca de temporada' } }]);
    // Before any read: the list store applied it.
    expect(names()).toEqual(['Marca 01', 'Marca de temporada', 'Marca 03']);
    expect(reads).toBe(before);
    await waitFor(() => expect(reads).toBe(before + 1));
  });

  it('takes a deleted row out at once and counts one less', async () => {
    seedBrands(3);
    mount('/brands');
    await waitFor(() => expect(names()).toHaveLength(3));
    await act(() => screen.getByRole('button', { name: 'Borrar la primera' }).click());
    await waitFor(() => expect(names()).toEqual(['Marca 02', 'Marca 03']));
    expect(screen.getByTestId('total').textContent).toBe('2');
  });

  it('says when the page could not be read', async () => {
    api.failNext(new Error('sin señal'));
    mount('/brands');
    expect((await screen.findByRole('alert')).textContent).toBe('No pudimos cargar las marcas.');
    expect(names()).toEqual([]);
  });
});
