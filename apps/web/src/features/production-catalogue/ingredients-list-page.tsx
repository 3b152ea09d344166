import { compareBytes, normaliseKey } from '@hornada/domain/text';
import { AlertTriangle, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { useLiveList } from '../../lib/use-live-list';
import { catalogueApi, UNIT_LABELS, type Ingredient } from './api';
import { useCompanyId, useLoad } from './data';
import { SearchBox, SortHeader, useUrlView, type SortState } from './table';
import { LoadedPage, primaryButton, quantity, unitCost } from './ui';

/** Low stock: at or under its minimum, when it has one. */
export const isLowStock = (i: Pick<Ingredient, 'stock' | 'minStock'>): boolean =>
  i.minStock > 0 && i.stock <= i.minStock;

const SORTS = ['name', 'costPerUnit', 'stock', 'supplier'] as const;
type SortKey = (typeof SORTS)[number];
const DEFAULT_SORT: SortState<SortKey> = { key: 'name', direction: 'asc' };

function compare(sort: SortState<SortKey>) {
  const sign = sort.direction === 'asc' ? 1 : -1;
  return (a: Ingredient, b: Ingredient) => {
    if (sort.key === 'name' || sort.key === 'supplier') {
      return sign * compareBytes(normaliseKey(a[sort.key] ?? ''), normaliseKey(b[sort.key] ?? ''));
    }
    return sign * (a[sort.key] - b[sort.key]);
  };
}

/**
 * The ingredients (design §6): cost per unit, stock against its minimum (low stock marked), supplier. A
 * bakery keeps tens of them: the list is read whole, kept live, and searched, filtered and sorted here; the
 * view stays in the URL.
 */
export function Component() {
  const companyId = useCompanyId();
  const [loaded, retry] = useLoad(
    companyId,
    (signal) => catalogueApi.ingredients(companyId!, signal),
    'No pudimos cargar los ingredientes. Intenta de nuevo.',
  );
  return (
    <LoadedPage
      title="Ingredientes"
      actions={
        <Link to={paths.dashboard.ingredientCreate} className={primaryButton}>
          <Plus className="size-4" aria-hidden="true" />
          Nuevo ingrediente
        </Link>
      }
      companyId={companyId}
      loaded={loaded}
      onRetry={retry}
      loading="Cargando los ingredientes…"
    >
      {(data, companyId) => <IngredientsTable companyId={companyId} initial={data} />}
    </LoadedPage>
  );
}

function IngredientsTable({ companyId, initial }: { companyId: string; initial: Ingredient[] }) {
  const { params, search, sort, set, setSort: onSort } = useUrlView(SORTS, DEFAULT_SORT);
  const ingredients = useLiveList<Ingredient>(companyId, 'ingredients', initial);
  const lowOnly = params.get('stock') === 'low';

  const rows = useMemo(() => {
    const needle = normaliseKey(search.trim());
    return ingredients
      .filter((i) => !needle || normaliseKey(`${i.name} ${i.supplier ?? ''}`).includes(needle))
      .filter((i) => !lowOnly || isLowStock(i))
      .sort(compare(sort));
  }, [ingredients, search, lowOnly, sort.key, sort.direction]);

  if (ingredients.length === 0) {
    return (
      <EmptyState
        title="Aún no hay ingredientes."
        action={
          <Link to={paths.dashboard.ingredientCreate} className={primaryButton}>
            Agregar el primer ingrediente
          </Link>
        }
      >
        <p>Registra tus ingredientes con su costo para calcular el costo de cada receta.</p>
      </EmptyState>
    );
  }

  const low = ingredients.filter(isLowStock).length;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <SearchBox
          id="ingredients-search"
          label="Buscar ingredientes"
          value={search}
          onChange={(value) => set('search', value)}
        />
        <label className="inline-flex items-center gap-2 text-stone-800">
          <input
            type="checkbox"
            checked={lowOnly}
            onChange={(e) => set('stock', e.target.checked ? 'low' : null)}
            className="size-4 accent-amber-800"
          />
          Solo existencias bajas ({low})
        </label>
      </div>
      {rows.length === 0 ? (
        <EmptyState title="Ningún ingrediente coincide.">
          <p>Prueba con otro nombre o proveedor, o quita el filtro de existencias bajas.</p>
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-stone-200 bg-white shadow-sm">
          <table className="w-full min-w-[20rem] text-left">
            <caption className="sr-only">Ingredientes con su costo, existencias y proveedor</caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-sm text-stone-700">
              <tr>
                <SortHeader label="Ingrediente" column="name" sort={sort} onSort={onSort} />
                <SortHeader label="Costo" column="costPerUnit" sort={sort} onSort={onSort} numeric />
                <SortHeader label="Existencias" column="stock" sort={sort} onSort={onSort} numeric />
                <th scope="col" className="hidden px-3 py-2 text-right font-semibold sm:table-cell">
                  Mínimo
                </th>
                <SortHeader
                  label="Proveedor"
                  column="supplier"
                  sort={sort}
                  onSort={onSort}
                  className="hidden md:table-cell"
                />
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((i) => {
                const lowStock = isLowStock(i);
                return (
                  <tr key={i.id} data-testid="ingredient-row" className="hover:bg-amber-50/50">
                    <th scope="row" className="px-2 py-3 sm:px-3 font-medium">
                      <Link
                        to={paths.dashboard.ingredientUpdate(i.id)}
                        className="text-amber-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-amber-700"
                      >
                        {i.name}
                      </Link>
                    </th>
                    <td className="px-2 py-3 sm:px-3 text-right tabular-nums">
                      {unitCost(i.costPerUnit)} <span className="text-stone-600">/ {UNIT_LABELS[i.unit]}</span>
                    </td>
                    <td className="px-2 py-3 sm:px-3 text-right tabular-nums">
                      <span className={lowStock ? 'font-semibold text-red-800' : ''}>
                        {quantity(i.stock)} {UNIT_LABELS[i.unit]}
                      </span>
                      {lowStock ? (
                        <span className="mt-1 flex items-center justify-end gap-1 whitespace-nowrap text-xs font-medium text-red-800">
                          <AlertTriangle className="size-3.5" aria-hidden="true" />
                          Existencias bajas
                        </span>
                      ) : null}
                    </td>
                    <td className="hidden px-2 py-3 sm:px-3 text-right tabular-nums text-stone-700 sm:table-cell">
                      {quantity(i.minStock)} {UNIT_LABELS[i.unit]}
                    </td>
                    <td className="hidden px-2 py-3 sm:px-3 text-stone-700 md:table-cell">{i.supplier ?? '—'}</td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
