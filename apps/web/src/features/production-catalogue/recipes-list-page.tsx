import { compareCosted } from '@hornada/domain/costing';
import { formatCount } from '@hornada/domain/format';
import { compareBytes, normaliseKey } from '@hornada/domain/text';
import { AlertTriangle, Plus } from 'lucide-react';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { paths } from '../../config/paths';
import { useLiveList } from '../../lib/live/use-live-list';
import { samePathSameData, useScreenData } from '../../lib/live/use-screen-data';
import { readForScreen } from '../../lib/api/screen-read';
import { catalogueApi, type Recipe } from './api';
import {
  costedRecipes,
  loadCostingBasis,
  useLiveBasis,
  applyWholeChanges,
  failedRead,
  type CostedRecipe,
  type CostingBasis,
} from './data';
import { SortHeader, useListView } from './table';
import { SearchBox } from '../../components/data-table/data-table';
import type { ListViewConfig } from '../../components/data-table/list-url';
import { LoadedPage, percent, pesos } from './ui';
import type { RecipeProductMargin } from '@hornada/domain/costing';
import { useCompanyId } from '../../components/data-table/resource-client';
import { RowActions } from '../../components/data-table/row-actions';
import { buttonClass } from '../../components/ui/button';

/**
 * Every recipe with its cost a unit, the products made from it with their price and margin, and the lowest of
 * those margins (docs/design.md §6). Costs are derived, so the server cannot sort by
 * them: a bakery has tens of recipes, so the screen reads them all with every ingredient and product, keeps
 * the three lists live and searches and sorts here. The view (search, sort) stays in the URL. By default the
 * least profitable come first.
 */

const CONFIG: ListViewConfig = {
  sortFields: ['name', 'product', 'costPerUnit', 'margin'],
  defaults: { sortBy: 'margin', sortDesc: false },
};
const SORT_NAMES: Record<string, string> = {
  name: 'nombre',
  product: 'producto',
  costPerUnit: 'costo por unidad',
  margin: 'margen',
};

const byText = (read: (r: CostedRecipe) => string, direction: 'asc' | 'desc') => (a: CostedRecipe, b: CostedRecipe) =>
  (direction === 'asc' ? 1 : -1) * compareBytes(normaliseKey(read(a)), normaliseKey(read(b)));

function sorter(sortBy: string, sortDesc: boolean): (a: CostedRecipe, b: CostedRecipe) => number {
  const direction = sortDesc ? 'desc' : 'asc';
  if (sortBy === 'name') return byText((r) => r.recipe.name, direction);
  if (sortBy === 'product') return byText((r) => r.products[0]?.name ?? '', direction);
  return compareCosted(sortBy === 'costPerUnit' ? 'costPerUnit' : 'margin', direction);
}

/** The recipes and what costing reads; their changes then patch the lists (useLiveList, useLiveBasis). */
export const loader = ({ request: { signal } }: { request: Request }) =>
  readForScreen(async (companyId) => {
    const [basis, recipes] = await Promise.all([
      loadCostingBasis(companyId, signal),
      catalogueApi.recipes(companyId, signal),
    ]);
    return { basis, recipes };
  }, failedRead('No pudimos cargar las recetas. Intenta de nuevo.'));

export const shouldRevalidate = samePathSameData;

export function Component() {
  const companyId = useCompanyId();
  const { data: loaded, reload: retry } = useScreenData(loader, companyId, []);
  return (
    <LoadedPage
      title="Recetas"
      actions={
        <Link to={paths.dashboard.recipeCreate} className={buttonClass}>
          <Plus className="size-4" aria-hidden="true" />
          Nueva receta
        </Link>
      }
      companyId={companyId}
      loaded={loaded}
      onRetry={retry}
      loading="Cargando las recetas…"
    >
      {(data, companyId) => <RecipesTable companyId={companyId} basis={data.basis} recipes={data.recipes} />}
    </LoadedPage>
  );
}

function RecipesTable({
  companyId,
  basis: loadedBasis,
  recipes: loadedRecipes,
}: {
  companyId: string;
  basis: CostingBasis;
  recipes: Recipe[];
}) {
  const { view, setView } = useListView(CONFIG);
  const { search, sortBy, sortDesc } = view;
  const basis = useLiveBasis(companyId, loadedBasis);
  const recipes = useLiveList(companyId, 'recipes', loadedRecipes, {
    apply: applyWholeChanges,
    reload: (signal) => catalogueApi.recipes(companyId, signal),
  });

  const rows = useMemo(() => {
    const needle = normaliseKey(search.trim());
    const all = costedRecipes(recipes, basis).filter(
      (r) => !needle || normaliseKey(`${r.recipe.name} ${r.products.map((p) => p.name).join(' ')}`).includes(needle),
    );
    return all.sort(sorter(sortBy, sortDesc));
  }, [recipes, basis, search, sortBy, sortDesc]);

  if (recipes.length === 0) {
    return (
      <EmptyState
        title="Aún no hay recetas."
        action={
          <Link to={paths.dashboard.recipeCreate} className={buttonClass}>
            Crear la primera receta
          </Link>
        }
      >
        <p>Con una receta ves cuánto cuesta cada unidad y qué margen deja frente al precio del producto.</p>
      </EmptyState>
    );
  }

  const below = rows.filter((r) => r.belowTarget).length;
  return (
    <div className="grid gap-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <SearchBox
          id="recipes-search"
          label="Buscar recetas"
          placeholder="Receta o producto"
          value={search}
          onChange={(value) => setView({ search: value })}
        />
        <p className="text-sm text-stone-700">
          Margen objetivo: <strong>{percent(basis.targetMargin)}</strong>
          {below > 0 ? ` · ${formatCount(below, 'receta')} por debajo` : null}
        </p>
      </div>
      {rows.length === 0 ? (
        <EmptyState title="Ninguna receta coincide con la búsqueda.">
          <p>Prueba con otro nombre de receta o de producto.</p>
        </EmptyState>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-stone-200 bg-white shadow-sm">
          <table className="w-full min-w-[20rem] text-left">
            <caption className="sr-only">
              Recetas con su costo por unidad, los productos que la usan con su precio y su margen, y el margen más
              bajo; ordenadas por {SORT_NAMES[sortBy]}
            </caption>
            <thead className="border-b border-stone-200 bg-stone-50 text-sm text-stone-700">
              <tr>
                <SortHeader label="Receta" column="name" view={view} setView={setView} />
                <SortHeader
                  label="Productos"
                  column="product"
                  view={view}
                  setView={setView}
                  className="hidden sm:table-cell"
                />
                <SortHeader
                  label={
                    <>
                      Costo<span className="hidden sm:inline"> por unidad</span>
                    </>
                  }
                  column="costPerUnit"
                  view={view}
                  setView={setView}
                  numeric
                />
                <SortHeader label="Margen" column="margin" view={view} setView={setView} numeric />
                <th scope="col" className="px-1 py-2">
                  <span className="sr-only">Acciones</span>
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-100">
              {rows.map((r) => (
                <tr key={r.recipe.id} data-testid="recipe-row" className="hover:bg-amber-50/50">
                  <th scope="row" className="px-2 py-3 sm:px-3 font-medium">
                    <Link
                      to={paths.dashboard.recipeUpdate(r.recipe.id)}
                      className="text-amber-900 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-amber-700"
                    >
                      {r.recipe.name}
                    </Link>
                    <span className="block text-sm font-normal text-stone-600 sm:hidden">
                      {r.products.length ? r.products.map((p) => p.name).join(', ') : NO_PRODUCT}
                    </span>
                  </th>
                  <td className="hidden px-2 py-3 sm:px-3 text-stone-700 sm:table-cell" data-testid="recipe-products">
                    <RecipeProducts products={r.products} />
                  </td>
                  <td className="px-2 py-3 sm:px-3 text-right tabular-nums" data-testid="recipe-cost">
                    {pesos(r.costPerUnit)}
                  </td>
                  <td className="px-2 py-3 sm:px-3 text-right tabular-nums" data-testid="recipe-margin">
                    <span className={r.belowTarget ? 'font-semibold text-red-800' : ''}>{percent(r.margin)}</span>
                    {r.products.length > 1 ? <span className="block text-xs text-stone-600">el más bajo</span> : null}
                    {r.belowTarget ? (
                      <span className="mt-1 flex items-center justify-end gap-1 whitespace-nowrap text-xs font-medium text-red-800">
                        <AlertTriangle className="size-3.5" aria-hidden="true" />
                        <span className="sr-only sm:not-sr-only">Bajo el objetivo</span>
                      </span>
                    ) : null}
                  </td>
                  <td className="px-1 py-2">
                    <RowActions
                      name={r.recipe.name}
                      noun="la receta"
                      editTo={paths.dashboard.recipeUpdate(r.recipe.id)}
                      onDelete={() => catalogueApi.removeRecipe(companyId, r.recipe.id)}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

const NO_PRODUCT = 'Ningún producto la usa';

/** Each product made from the recipe with its price and margin; a margin under the target in red. */
function RecipeProducts({ products }: { products: RecipeProductMargin[] }) {
  if (products.length === 0) return <span className="text-stone-600">{NO_PRODUCT}</span>;
  return (
    <ul className="grid gap-1">
      {products.map((p) => (
        <li key={p.id} data-testid="recipe-product">
          <span className="font-medium text-stone-900">{p.name}</span>
          <span className="block text-sm tabular-nums text-stone-600 md:inline">
            <span className="hidden md:inline"> · </span>
            {pesos(p.price)} · margen{' '}
            <span className={p.belowTarget ? 'font-semibold text-red-800' : ''}>{percent(p.margin)}</span>
          </span>
        </li>
      ))}
    </ul>
  );
}
