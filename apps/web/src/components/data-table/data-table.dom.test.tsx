import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ColumnDef } from '@tanstack/react-table';
import { useState } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DataTable } from './data-table';
import { changeView, viewDefaults, type ListView } from './list-url';
import type { ResourceTable } from './use-resource-table';

/** The back office's table kit as staff use it: search, filters, sorting, pages, columns and its empty states. */

interface Row {
  id: string;
  name: string;
  price: number;
  status: string;
}

const columns: ColumnDef<Row>[] = [
  { accessorKey: 'name', header: 'Nombre', meta: { sortField: 'name', fixed: true } },
  { accessorKey: 'price', header: 'Precio', meta: { sortField: 'price', align: 'right' } },
  { accessorKey: 'status', header: 'Estado', meta: { hideOnPhone: true } },
];

const rows: Row[] = [
  { id: 'a', name: 'Pan de bono', price: 2500, status: 'Activo' },
  { id: 'b', name: 'Torta negra', price: 65000, status: 'Activo' },
];

interface Shown {
  items?: Row[];
  total?: number;
  loading?: boolean;
  error?: string | null;
  view?: Partial<ListView>;
}

/** The table over a view kept in React state as the URL would keep it; every change asked for is recorded. */
function renderTable(shown: Shown = {}) {
  const changes: Partial<ListView>[] = [];
  const reload = vi.fn();
  function Harness() {
    const [view, setView] = useState<ListView>({
      ...viewDefaults({ sortFields: ['name', 'price'], filterKeys: ['status'] }),
      ...shown.view,
    });
    const table: ResourceTable<Row> = {
      items: shown.items ?? rows,
      total: shown.total ?? (shown.items ?? rows).length,
      loading: shown.loading ?? false,
      error: shown.error ?? null,
      data: null,
      view,
      setView(change) {
        changes.push(change);
        setView((v) => changeView(v, change));
      },
      reload,
      companyId: 'la-espiga',
      service: null,
      store: null,
    };
    return (
      <DataTable
        id="products"
        label="Productos"
        table={table}
        columns={columns}
        searchLabel="Buscar productos"
        filters={[{ key: 'status', label: 'Estado', options: [{ value: 'active', label: 'Activos' }] }]}
        empty={<p>Aún no tienes productos.</p>}
      />
    );
  }
  const router = createMemoryRouter([{ path: '/', element: <Harness /> }]);
  render(<RouterProvider router={router} />);
  return { changes, reload };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the data table', () => {
  it('lists the rows under their headers, money on the right, with the range and the pages', () => {
    renderTable({ total: 23 });
    const table = screen.getByRole('table', { name: 'Productos' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Nombre', 'Precio', 'Estado']);
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: '65000' }).className).toContain('text-right');
    const pages = screen.getByRole('navigation', { name: 'Paginación' });
    expect(pages.textContent).toContain('Página 1 de 3');
    expect((within(pages).getByRole('button', { name: 'Página anterior' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('sorts by a header: ascending, then descending, said to screen readers', async () => {
    const { changes } = renderTable();
    const user = userEvent.setup();
    const header = () => screen.getByRole('columnheader', { name: /Precio/ });
    expect(header().getAttribute('aria-sort')).toBeNull();
    await user.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('ascending');
    await user.click(within(header()).getByRole('button'));
    expect(header().getAttribute('aria-sort')).toBe('descending');
    expect(changes).toEqual([
      { sortBy: 'price', sortDesc: false },
      { sortBy: 'price', sortDesc: true },
    ]);
    // The other header is not sorted, and one without a sort field has no button.
    expect(screen.getByRole('columnheader', { name: /Nombre/ }).getAttribute('aria-sort')).toBeNull();
    expect(within(screen.getByRole('columnheader', { name: 'Estado' })).queryByRole('button')).toBeNull();
  });

  it('searches after a short pause, once, and at once on Enter', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { changes } = renderTable();
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const box = screen.getByRole('searchbox', { name: 'Buscar productos' });
    await user.type(box, 'pan');
    expect(changes).toEqual([]);
    await act(() => vi.advanceTimersByTimeAsync(300));
    expect(changes).toEqual([{ search: 'pan' }]);
    await user.type(box, ' de{Enter}');
    expect(changes.at(-1)).toEqual({ search: 'pan de' });
    await user.click(screen.getByRole('button', { name: 'Borrar búsqueda' }));
    expect(changes.at(-1)).toEqual({ search: '' });
    expect((box as HTMLInputElement).value).toBe('');
  });

  it('filters and pages through the view', async () => {
    const { changes } = renderTable({ total: 23 });
    const user = userEvent.setup();
    await user.selectOptions(screen.getByRole('combobox', { name: 'Estado' }), 'active');
    await user.click(screen.getByRole('button', { name: 'Página siguiente' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Por página' }), '25');
    expect(changes).toEqual([{ filters: { status: 'active' } }, { page: 2 }, { perPage: 25 }]);
    expect(screen.getByRole('navigation', { name: 'Paginación' }).textContent).toContain('Página 1 de 1');
  });

  it('shows an empty list as the screen says it, with no table', () => {
    renderTable({ items: [], total: 0 });
    expect(screen.getByText('Aún no tienes productos.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('offers to clear a search that found nothing', async () => {
    const { changes } = renderTable({ items: [], total: 0, view: { search: 'zzz', filters: { status: 'active' } } });
    expect(screen.getByText('No encontramos resultados.')).toBeTruthy();
    expect(screen.queryByText('Aún no tienes productos.')).toBeNull();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Quitar búsqueda y filtros' }));
    expect(changes).toEqual([{ search: '', filters: { status: '' } }]);
  });

  it('shows a skeleton while the first page loads', () => {
    renderTable({ items: [], total: 0, loading: true });
    expect(screen.getByRole('status').textContent).toBe('Cargando…');
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true');
  });

  it('says a failed read in Spanish and reads again on request', async () => {
    const { reload } = renderTable({
      items: [],
      total: 0,
      error: 'El servicio no está disponible. Intenta de nuevo en un momento.',
    });
    expect(screen.getByRole('alert').textContent).toContain('El servicio no está disponible.');
    await userEvent.setup().click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('hides a column from the chooser and remembers it; the fixed one is not offered', async () => {
    renderTable();
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Columnas' }));
    const menu = await screen.findByRole('menu');
    expect(within(menu).queryByRole('menuitemcheckbox', { name: 'Nombre' })).toBeNull();
    await user.click(within(menu).getByRole('menuitemcheckbox', { name: 'Precio' }));
    expect(screen.queryByRole('columnheader', { name: /Precio/ })).toBeNull();
    expect(
      JSON.parse(localStorage.getItem(Object.keys(localStorage).find((k) => k.includes('products'))!)!),
    ).toMatchObject({ price: false });
  });

  it('on a phone hides the columns marked so, until chosen', () => {
    const width = window.innerWidth;
    window.innerWidth = 375;
    try {
      renderTable();
      expect(screen.queryByRole('columnheader', { name: 'Estado' })).toBeNull();
      expect(screen.getByRole('columnheader', { name: /Precio/ })).toBeTruthy();
    } finally {
      window.innerWidth = width;
    }
  });
});
