import { compatibleUnits, isUnit, type LineProblem } from '@hornada/domain/costing';
import { RecipeInput } from '@hornada/domain/schemas/catalogue';
import { AlertTriangle, ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { useFieldArray, useForm, useWatch, type Control, type FieldErrors, type Resolver } from 'react-hook-form';
import { Link, useNavigate, useParams, type Params } from 'react-router';
import { FormAlert, SelectField, TextAreaField, TextField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { optionalId, parseDecimal, textOf } from '../../components/forms/form-values';
import { UnsavedChangesDialog, useUnsavedChanges } from '../../components/forms/unsaved-changes';
import { useCompanyId } from '../../components/data-table/resource-client';
import { buttonClass, iconButtonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { toastStore } from '../../lib/toast-store';
import { catalogueApi, UNIT_LABELS, type Recipe, type RecipeWrite } from './api';
import { costed, failedRead, loadCostingBasis, useLiveBasis, type CostingBasis, type LiveBasis } from './data';
import { useScreenData } from '../../lib/live/use-screen-data';
import { readForScreen } from '../../lib/api/screen-read';
import { LoadedPage, percent, pesos, sectionClass } from './ui';

interface LineForm {
  ingredientId: string;
  quantity: string;
  unit: string;
}

export interface RecipeForm {
  name: string;
  productId: string;
  yield: string;
  prepMinutes: string;
  items: LineForm[];
  steps: { text: string }[];
}

const EMPTY_LINE: LineForm = { ingredientId: '', quantity: '', unit: '' };

/** A number as typed; undefined when empty (the schema then says it is required), NaN when not a number. */
const typed = (value: string): number | undefined => (value.trim() === '' ? undefined : parseDecimal(value));

function toForm(recipe: Recipe | null, basis: CostingBasis): RecipeForm {
  if (!recipe) return { name: '', productId: '', yield: '', prepMinutes: '', items: [{ ...EMPTY_LINE }], steps: [] };
  const unitOf = (id: string) => basis.ingredients.find((i) => i.id === id)?.unit ?? '';
  return {
    name: recipe.name,
    productId: textOf(recipe.productId),
    yield: textOf(recipe.yield),
    prepMinutes: textOf(recipe.prepMinutes),
    items: recipe.items.map((l) => ({
      ingredientId: l.ingredientId,
      quantity: textOf(l.quantity),
      unit: l.unit ?? unitOf(l.ingredientId),
    })),
    steps: recipe.steps.map((text) => ({ text })),
  };
}

function toInput(form: RecipeForm): RecipeWrite {
  const prep = form.prepMinutes.trim();
  return {
    name: form.name,
    productId: optionalId(form.productId),
    yield: typed(form.yield) as number,
    prepMinutes: prep === '' ? null : (typed(prep) as number),
    items: form.items.map((l) => ({
      ingredientId: l.ingredientId,
      quantity: parseDecimal(l.quantity) as number,
      unit: isUnit(l.unit) ? l.unit : null,
    })),
    steps: form.steps.map((s) => s.text),
  };
}

/**
 * The domain schema's check, said in Spanish (form-rules.ts), with the few texts this form says better:
 * a line's ingredient and quantity, whole numbers, and the steps (the form keeps each in `{text}`).
 */
const baseResolver = domainResolver<RecipeForm>(RecipeInput, toInput);
const recipeResolver: Resolver<RecipeForm> = async (values, context, options) => {
  const result = await baseResolver(values, context, options);
  const errors = result.errors as Record<string, unknown> & FieldErrors<RecipeForm>;
  const items = errors.items as unknown as ({ [k: string]: { type: string; message: string } } | undefined)[];
  items?.forEach?.((line, i) => {
    if (!line) return;
    if (line.ingredientId) line.ingredientId.message = 'Elige un ingrediente.';
    if (line.quantity?.type === 'custom') line.quantity.message = 'La cantidad debe ser mayor que 0.';
    if (values.items[i] && line.unit) line.unit.message = 'Elige una unidad.';
  });
  for (const key of ['yield', 'prepMinutes'] as const) {
    const e = errors[key] as { type: string; message: string } | undefined;
    if (e?.type !== 'invalid_type') continue;
    const value = typed(values[key]);
    if (value === undefined) e.message = 'Este campo es obligatorio.';
    else if (!Number.isNaN(value)) e.message = 'Escribe un número entero.';
  }
  const steps = errors.steps as unknown as ({ type: string; message: string } | undefined)[] | undefined;
  if (Array.isArray(steps)) {
    (errors as Record<string, unknown>).steps = steps.map((e) => (e ? { text: e } : undefined));
  }
  return result;
};

const isFormField = (path: string) =>
  /^(name|productId|yield|prepMinutes|items\.\d+\.(ingredientId|quantity|unit)|steps\.\d+\.text)$/.test(path);

/** Recipes: create and update (docs/design.md §6), with the cost a unit and the margin recalculated as you type. */
/** The recipe (none for a new one) and what costing reads; their changes then patch the basis (useLiveBasis). */
export const loader = ({ request: { signal }, params: { id } }: { request: Request; params: Params }) =>
  readForScreen(async (companyId) => {
    const [basis, recipe] = await Promise.all([
      loadCostingBasis(companyId, signal),
      id ? catalogueApi.recipe(companyId, id, signal) : Promise.resolve(null),
    ]);
    return { basis, recipe };
  }, failedRead('No pudimos cargar la receta. Intenta de nuevo.'));

export function Component() {
  const { id = null } = useParams();
  const companyId = useCompanyId();
  const { data: loaded, reload: retry } = useScreenData(loader, companyId, []);
  return (
    <LoadedPage
      title={id ? 'Editar receta' : 'Nueva receta'}
      back={{ to: paths.dashboard.recipes, label: 'Recetas' }}
      companyId={companyId}
      loaded={loaded}
      onRetry={retry}
      loading="Cargando la receta…"
    >
      {(data, companyId) => <RecipeEditor companyId={companyId} recipe={data.recipe} basis={data.basis} />}
    </LoadedPage>
  );
}

function RecipeEditor({
  companyId,
  recipe,
  basis: loadedBasis,
}: {
  companyId: string;
  recipe: Recipe | null;
  basis: CostingBasis;
}) {
  const navigate = useNavigate();
  const basis = useLiveBasis(companyId, loadedBasis);
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    setError,
    setValue,
    getValues,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<RecipeForm>({
    resolver: recipeResolver,
    defaultValues: toForm(recipe, loadedBasis),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const lines = useFieldArray({ control, name: 'items' });
  const steps = useFieldArray({ control, name: 'steps' });
  const { blocker, allowNextNavigation } = useUnsavedChanges(isDirty && !isSubmitting);
  const productOptions = basis.products.map((p) => ({ value: p.id, label: `${p.name} · ${pesos(p.price)}` }));
  // The products whose recipe this already is (the link kept on the product): named, so that "Sin producto"
  // here does not read as "no product uses it".
  const usedBy = recipe ? basis.products.filter((p) => p.recipeId === recipe.id).map((p) => p.name) : [];
  const productHint = usedBy.length
    ? `Ya la usan: ${usedBy.join(', ')}. El margen se calcula contra el precio de cada producto que la usa.`
    : 'El margen se calcula contra el precio de este producto.';

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    let saved: Recipe;
    try {
      saved = recipe
        ? await catalogueApi.updateRecipe(companyId, recipe.id, toInput(form))
        : await catalogueApi.createRecipe(companyId, toInput(form));
    } catch (err) {
      const message = applyServerErrors(err, isFormField, setError);
      setFormError(message);
      toastStore.getState().show({ type: 'error', message: message ?? 'Revisa los campos marcados.' });
      return;
    }
    toastStore.getState().show(recipe ? `Guardamos «${saved.name}».` : `Creamos la receta «${saved.name}».`);
    allowNextNavigation();
    void navigate(paths.dashboard.recipes);
  });

  return (
    <form onSubmit={submit} noValidate className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem] lg:items-start">
      <div className="grid gap-6">
        <FormAlert>{formError}</FormAlert>
        <FormSection title="Datos generales">
          <div className="grid gap-4 sm:grid-cols-2">
            <TextField
              id="recipe-name"
              label="Nombre"
              className="sm:col-span-2"
              registration={register('name')}
              error={errors.name?.message}
            />
            <SelectField
              id="recipe-product"
              label="Producto"
              labelNote="(opcional)"
              className="sm:col-span-2"
              options={productOptions}
              emptyLabel="Sin producto"
              hint={productHint}
              registration={register('productId')}
              error={errors.productId?.message}
            />
            <TextField
              id="recipe-yield"
              label="Rendimiento por tanda"
              inputMode="numeric"
              hint="Unidades que salen de una tanda."
              registration={register('yield')}
              error={errors.yield?.message}
            />
            <TextField
              id="recipe-prep"
              label="Preparación (minutos)"
              labelNote="(opcional)"
              inputMode="numeric"
              registration={register('prepMinutes')}
              error={errors.prepMinutes?.message}
            />
          </div>
        </FormSection>

        <FormSection
          title="Ingredientes"
          description="Escribe cada cantidad en la unidad del ingrediente o en su equivalente (g o kg, ml o l)."
        >
          {lines.fields.length === 0 ? (
            <p className="text-stone-600">Esta receta aún no tiene ingredientes.</p>
          ) : (
            <ol className="grid gap-3">
              {lines.fields.map((field, index) => (
                <IngredientLine
                  key={field.id}
                  index={index}
                  control={control}
                  basis={basis}
                  register={register}
                  errors={errors.items?.[index]}
                  onIngredient={(ingredientId) => {
                    const unit = basis.ingredientById.get(ingredientId)?.unit;
                    const current = getValues(`items.${index}.unit`);
                    if (unit && !(isUnit(current) && compatibleUnits(unit).includes(current))) {
                      setValue(`items.${index}.unit`, unit, { shouldDirty: true });
                    }
                  }}
                  onRemove={() => lines.remove(index)}
                />
              ))}
            </ol>
          )}
          <button type="button" className={secondaryButtonClass} onClick={() => lines.append({ ...EMPTY_LINE })}>
            <Plus className="size-4" aria-hidden="true" />
            Agregar ingrediente
          </button>
        </FormSection>

        <FormSection title="Pasos">
          {steps.fields.length === 0 ? <p className="text-stone-600">Aún no hay pasos escritos.</p> : null}
          <ol className="grid gap-3">
            {steps.fields.map((field, index) => (
              <li key={field.id} className="grid gap-2 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-start">
                <TextAreaField
                  id={`recipe-step-${field.id}`}
                  label={`Paso ${index + 1}`}
                  rows={2}
                  registration={register(`steps.${index}.text`)}
                  error={errors.steps?.[index]?.text?.message}
                />
                <div className="flex gap-1 sm:mt-7">
                  <button
                    type="button"
                    className={iconButtonClass}
                    disabled={index === 0}
                    onClick={() => steps.move(index, index - 1)}
                    aria-label={`Subir el paso ${index + 1}`}
                  >
                    <ArrowUp className="size-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className={iconButtonClass}
                    disabled={index === steps.fields.length - 1}
                    onClick={() => steps.move(index, index + 1)}
                    aria-label={`Bajar el paso ${index + 1}`}
                  >
                    <ArrowDown className="size-4" aria-hidden="true" />
                  </button>
                  <button
                    type="button"
                    className={iconButtonClass}
                    onClick={() => steps.remove(index)}
                    aria-label={`Quitar el paso ${index + 1}`}
                  >
                    <Trash2 className="size-4" aria-hidden="true" />
                  </button>
                </div>
              </li>
            ))}
          </ol>
          <button type="button" className={secondaryButtonClass} onClick={() => steps.append({ text: '' })}>
            <Plus className="size-4" aria-hidden="true" />
            Agregar paso
          </button>
        </FormSection>
        <CostBar control={control} basis={basis} recipeId={recipe?.id ?? null} />
      </div>

      <aside className="grid gap-4 lg:sticky lg:top-20">
        <CostSummary control={control} basis={basis} recipeId={recipe?.id ?? null} />
        <div className="flex gap-2">
          <Link to={paths.dashboard.recipes} className={`${secondaryButtonClass} flex-1`}>
            Cancelar
          </Link>
          <button
            type="submit"
            className={`${buttonClass} flex-1`}
            disabled={isSubmitting}
            aria-busy={isSubmitting || undefined}
          >
            {isSubmitting ? 'Guardando…' : recipe ? 'Guardar cambios' : 'Crear receta'}
          </button>
        </div>
      </aside>
      <UnsavedChangesDialog blocker={blocker} />
    </form>
  );
}

const PROBLEM_TEXT: Record<LineProblem, string> = {
  missing: 'Elige un ingrediente.',
  incompatible: 'Esta unidad no se convierte a la del ingrediente.',
  invalid: 'Escribe una cantidad válida.',
};

function IngredientLine({
  index,
  control,
  basis,
  register,
  errors,
  onIngredient,
  onRemove,
}: {
  index: number;
  control: Control<RecipeForm>;
  basis: LiveBasis;
  register: ReturnType<typeof useForm<RecipeForm>>['register'];
  errors: FieldErrors<LineForm> | undefined;
  onIngredient: (id: string) => void;
  onRemove: () => void;
}) {
  const ingredientId = useWatch({ control, name: `items.${index}.ingredientId` });
  const ingredient = basis.ingredientById.get(ingredientId);
  const ingredientOptions = basis.ingredients.map((i) => ({ value: i.id, label: i.name }));
  const unitOptions = (ingredient ? compatibleUnits(ingredient.unit) : []).map((u) => ({
    value: u,
    label: UNIT_LABELS[u],
  }));
  const id = (name: string) => `recipe-line-${index}-${name}`;
  return (
    <li className="grid gap-2 rounded-xl border border-stone-200 p-3 sm:grid-cols-[minmax(0,2fr)_minmax(0,1fr)_minmax(0,7rem)_auto] sm:items-start">
      <SelectField
        id={id('ingredient')}
        label={`Ingrediente ${index + 1}`}
        options={ingredientOptions}
        emptyLabel="Elige un ingrediente"
        registration={register(`items.${index}.ingredientId`, {
          onChange: (e: { target: { value: unknown } }) => onIngredient(String(e.target.value)),
        })}
        error={errors?.ingredientId?.message}
      />
      <TextField
        id={id('quantity')}
        label="Cantidad"
        inputMode="decimal"
        registration={register(`items.${index}.quantity`)}
        error={errors?.quantity?.message}
      />
      <SelectField
        id={id('unit')}
        label="Unidad"
        options={unitOptions}
        {...(ingredient ? {} : { emptyLabel: '—' })}
        disabled={!ingredient}
        registration={register(`items.${index}.unit`)}
        error={errors?.unit?.message}
      />
      <button
        type="button"
        className={`${secondaryButtonClass} sm:mt-7`}
        onClick={onRemove}
        aria-label={`Quitar el ingrediente ${index + 1}`}
      >
        <Trash2 className="size-4" aria-hidden="true" />
        <span className="sm:sr-only">Quitar</span>
      </button>
    </li>
  );
}

/**
 * The figures of the recipe as it stands in the form, from the live ingredient costs and product prices:
 * the products made from it are the one chosen here and those whose recipe it already is.
 */
function useFigures(control: Control<RecipeForm>, basis: LiveBasis, recipeId: string | null) {
  const [items, yieldText, productId] = useWatch({ control, name: ['items', 'yield', 'productId'] });
  const input = toInput({ name: '', productId, yield: yieldText, prepMinutes: '', items, steps: [] });
  return costed(
    {
      id: recipeId,
      productId: input.productId ?? null,
      yield: Number.isInteger(input.yield) ? (input.yield as number) : Number.NaN,
      items: (input.items ?? []).map((l) => ({ ...l, quantity: l.quantity ?? Number.NaN, unit: l.unit ?? null })),
    },
    basis,
  );
}

/**
 * On a phone the summary sits below the whole form: this bar keeps the cost a unit and the margin in sight
 * while the lines are typed. It repeats what the summary says, so screen readers skip it.
 */
function CostBar({ control, basis, recipeId }: FiguresProps) {
  const figures = useFigures(control, basis, recipeId);
  return (
    <div
      aria-hidden="true"
      className="sticky bottom-0 z-10 -mx-4 flex justify-between gap-3 border-t border-stone-200 bg-white/95 px-4 py-2 text-sm shadow-[0_-2px_6px_rgba(0,0,0,0.05)] lg:hidden"
    >
      <span>
        Costo por unidad <strong className="tabular-nums">{pesos(figures.costPerUnit)}</strong>
      </span>
      <span>
        Margen{' '}
        <strong className={`tabular-nums ${figures.belowTarget ? 'text-red-800' : ''}`}>
          {percent(figures.margin)}
        </strong>
      </span>
    </div>
  );
}

interface FiguresProps {
  control: Control<RecipeForm>;
  basis: LiveBasis;
  recipeId: string | null;
}

function CostSummary({ control, basis, recipeId }: FiguresProps) {
  const figures = useFigures(control, basis, recipeId);
  const below = figures.products.filter((p) => p.belowTarget);
  const problems = [...new Set(figures.lines.flatMap((l) => (l.problem ? [PROBLEM_TEXT[l.problem]] : [])))];
  const why =
    problems.length > 0
      ? `Completa las líneas de ingredientes: ${problems.join(' ')}`
      : figures.costPerUnit === null
        ? 'Escribe el rendimiento por tanda (1 o más).'
        : null;
  return (
    <section aria-labelledby="recipe-costing" className={sectionClass}>
      <h2 id="recipe-costing" className="text-lg font-semibold text-stone-900">
        Costo y margen
      </h2>
      <dl className="mt-3 grid grid-cols-[1fr_auto] gap-x-4 gap-y-2">
        <dt className="text-stone-700">Costo de la tanda</dt>
        <dd className="text-right font-medium tabular-nums" data-testid="batch-cost">
          {pesos(figures.batchCost)}
        </dd>
        <dt className="text-stone-700">Costo por unidad</dt>
        <dd className="text-right text-lg font-semibold tabular-nums" data-testid="cost-per-unit">
          {pesos(figures.costPerUnit)}
        </dd>
        <dt className="text-stone-700">{figures.products.length > 1 ? 'Margen más bajo' : 'Margen'}</dt>
        <dd
          className={`text-right text-lg font-semibold tabular-nums ${figures.belowTarget ? 'text-red-800' : 'text-emerald-800'}`}
          data-testid="margin"
        >
          {percent(figures.margin)}
        </dd>
        <dt className="text-stone-700">Margen objetivo</dt>
        <dd className="text-right tabular-nums">{percent(basis.targetMargin)}</dd>
      </dl>
      <h3 className="mt-4 text-sm font-semibold text-stone-900">Productos con esta receta</h3>
      {figures.products.length === 0 ? (
        <p className="mt-1 text-sm text-stone-600" data-testid="recipe-no-products">
          Ningún producto usa esta receta todavía, así que no tiene margen. Elige su producto arriba o asígnale la
          receta desde el producto.
        </p>
      ) : (
        <ul className="mt-1 grid gap-1 text-sm">
          {figures.products.map((p) => (
            <li key={p.id} className="grid grid-cols-[1fr_auto] gap-x-3" data-testid="recipe-product">
              <span className="font-medium text-stone-900">{p.name}</span>
              <span
                className={`text-right tabular-nums ${p.belowTarget ? 'font-semibold text-red-800' : 'text-stone-900'}`}
              >
                <span className="sr-only">margen </span>
                {percent(p.margin)}
              </span>
              <span className="text-stone-600">
                Precio <span className="tabular-nums">{pesos(p.price)}</span>
              </span>
              <span className="text-right text-xs text-stone-600">
                {p.margin === null ? 'sin margen' : p.belowTarget ? 'bajo el objetivo' : 'en el objetivo'}
              </span>
            </li>
          ))}
        </ul>
      )}
      {why ? <p className="mt-3 text-sm text-stone-600">{why}</p> : null}
      <div role="status" className="empty:hidden">
        {below.length > 0 ? (
          <p className="mt-3 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {below.length === 1 && figures.products.length === 1
                ? `El margen (${percent(below[0]!.margin)}) está por debajo del objetivo (${percent(basis.targetMargin)}).`
                : `Por debajo del objetivo (${percent(basis.targetMargin)}): ${below
                    .map((p) => `${p.name} (${percent(p.margin)})`)
                    .join(', ')}.`}{' '}
              Revisa las cantidades, el rendimiento o el precio del producto.
            </span>
          </p>
        ) : null}
      </div>
    </section>
  );
}
