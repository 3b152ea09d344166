import { UNITS } from '@hornada/domain/constants';
import { IngredientInput } from '@hornada/domain/schemas/catalogue';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams } from 'react-router';
import { FieldLabel, FieldMessages, FormAlert, TextField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { toastStore } from '../../lib/toast-store';
import { catalogueApi, UNIT_LABELS, UNIT_NAMES, type Ingredient, type IngredientWrite } from './api';
import { useCompanyId, useLoad } from './data';
import {
  DeleteRecord,
  LoadedPage,
  parseDecimal,
  primaryButton,
  secondaryButton,
  sectionClass,
  selectClass,
} from './ui';

interface IngredientForm {
  name: string;
  unit: string;
  costPerUnit: string;
  stock: string;
  minStock: string;
  supplier: string;
}

const numberText = (n: number): string => String(n);

function toForm(i: Ingredient | null): IngredientForm {
  if (!i) return { name: '', unit: 'kg', costPerUnit: '', stock: '', minStock: '', supplier: '' };
  return {
    name: i.name,
    unit: i.unit,
    costPerUnit: numberText(i.costPerUnit),
    stock: numberText(i.stock),
    minStock: numberText(i.minStock),
    supplier: i.supplier ?? '',
  };
}

function toInput(form: IngredientForm): IngredientWrite {
  return {
    name: form.name,
    unit: form.unit as IngredientWrite['unit'],
    costPerUnit: parseDecimal(form.costPerUnit) ?? 0,
    stock: parseDecimal(form.stock) ?? 0,
    minStock: parseDecimal(form.minStock) ?? 0,
    supplier: form.supplier.trim() === '' ? null : form.supplier,
  };
}

const resolver = domainResolver<IngredientForm>(IngredientInput, toInput);
const isFormField = (path: string) => /^(name|unit|costPerUnit|stock|minStock|supplier)$/.test(path);

/** Ingredients: create and update (design §6): unit, cost per unit, stock, minimum stock, supplier. */
export function Component() {
  const { id = null } = useParams();
  const companyId = useCompanyId();
  const [loaded, retry] = useLoad(
    companyId && `${companyId}/${id ?? 'new'}`,
    (signal) => (id ? catalogueApi.ingredient(companyId!, id, signal) : Promise.resolve(null)),
    'No pudimos cargar el ingrediente. Intenta de nuevo.',
  );
  return (
    <LoadedPage
      title={id ? 'Editar ingrediente' : 'Nuevo ingrediente'}
      actions={
        <Link to={paths.dashboard.ingredients} className={secondaryButton}>
          Volver a ingredientes
        </Link>
      }
      companyId={companyId}
      loaded={loaded}
      onRetry={retry}
      loading="Cargando el ingrediente…"
    >
      {(data, companyId) => <IngredientEditor key={data?.updatedAt ?? 'new'} companyId={companyId} ingredient={data} />}
    </LoadedPage>
  );
}

function IngredientEditor({ companyId, ingredient }: { companyId: string; ingredient: Ingredient | null }) {
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<IngredientForm>({
    resolver,
    defaultValues: toForm(ingredient),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const unit = useWatch({ control, name: 'unit' }) as keyof typeof UNIT_LABELS;
  const per = UNIT_LABELS[unit] ?? '';

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      const saved = ingredient
        ? await catalogueApi.updateIngredient(companyId, ingredient.id, toInput(form))
        : await catalogueApi.createIngredient(companyId, toInput(form));
      toastStore.getState().show(ingredient ? 'Guardamos el ingrediente.' : 'Creamos el ingrediente.');
      if (ingredient) reset(toForm(saved));
      else void navigate(paths.dashboard.ingredients);
    } catch (err) {
      setFormError(applyServerErrors(err, isFormField, setError));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="grid max-w-3xl gap-6">
      <FormAlert>{formError}</FormAlert>
      <section aria-labelledby="ingredient-data" className={sectionClass}>
        <h2 id="ingredient-data" className="text-lg font-semibold text-stone-900">
          Datos del ingrediente
        </h2>
        <div className="mt-4 grid gap-4 sm:grid-cols-2">
          <TextField id="ingredient-name" label="Nombre" registration={register('name')} error={errors.name?.message} />
          <div>
            <FieldLabel id="ingredient-unit">Unidad</FieldLabel>
            <select
              id="ingredient-unit"
              {...register('unit')}
              aria-invalid={errors.unit ? true : undefined}
              aria-describedby="ingredient-unit-hint"
              className={selectClass}
            >
              {UNITS.map((u) => (
                <option key={u} value={u}>
                  {UNIT_NAMES[u]}
                </option>
              ))}
            </select>
            <FieldMessages
              id="ingredient-unit"
              hint="El costo, las existencias y el mínimo se leen en esta unidad."
              error={errors.unit?.message}
            />
          </div>
          <TextField
            id="ingredient-cost"
            label={`Costo por ${per}`}
            inputMode="decimal"
            hint="En pesos; admite hasta 4 decimales."
            registration={register('costPerUnit')}
            error={errors.costPerUnit?.message}
          />
          <TextField
            id="ingredient-supplier"
            label="Proveedor"
            labelNote="(opcional)"
            registration={register('supplier')}
            error={errors.supplier?.message}
          />
          <TextField
            id="ingredient-stock"
            label={`Existencias (${per})`}
            inputMode="decimal"
            registration={register('stock')}
            error={errors.stock?.message}
          />
          <TextField
            id="ingredient-min-stock"
            label={`Existencias mínimas (${per})`}
            inputMode="decimal"
            hint="En este nivel o por debajo, la lista lo marca como existencias bajas."
            registration={register('minStock')}
            error={errors.minStock?.message}
          />
        </div>
      </section>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={primaryButton} disabled={isSubmitting}>
          {isSubmitting ? 'Guardando…' : ingredient ? 'Guardar cambios' : 'Crear ingrediente'}
        </button>
        {ingredient ? (
          <DeleteRecord
            title="¿Eliminar este ingrediente?"
            confirmLabel="Eliminar ingrediente"
            remove={() => catalogueApi.removeIngredient(companyId, ingredient.id)}
            done="Eliminamos el ingrediente."
            failed="No pudimos eliminar el ingrediente."
            onDone={() => void navigate(paths.dashboard.ingredients)}
          >
            <p>
              «{ingredient.name}» dejará de estar disponible. Las recetas que lo usan no podrán calcular su costo hasta
              que lo reemplaces. Esta acción no se puede deshacer.
            </p>
          </DeleteRecord>
        ) : null}
      </div>
    </form>
  );
}
