import { UNITS } from '@hornada/domain/constants';
import { IngredientInput } from '@hornada/domain/schemas/catalogue';
import { useWatch } from 'react-hook-form';
import { useParams } from 'react-router';
import { SelectField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalText, parseDecimal, textOf } from '../../components/forms/form-values';
import { recordLoader, useResourceForm } from '../../components/forms/use-resource-form';
import { paths } from '../../config/paths';
import { UNIT_LABELS, UNIT_NAMES, type Ingredient, type IngredientWrite, type Unit } from './api';

interface IngredientForm {
  name: string;
  unit: string;
  costPerUnit: string;
  stock: string;
  minStock: string;
  supplier: string;
}

const EMPTY: IngredientForm = { name: '', unit: 'kg', costPerUnit: '', stock: '', minStock: '', supplier: '' };

const toForm = (i: Ingredient): IngredientForm => ({
  name: i.name,
  unit: i.unit,
  costPerUnit: textOf(i.costPerUnit),
  stock: textOf(i.stock),
  minStock: textOf(i.minStock),
  supplier: textOf(i.supplier),
});

/** Empty amounts take the schema's default (0); anything else must be a number. */
const amount = (value: string): number | undefined => (value.trim() === '' ? undefined : parseDecimal(value));

const toInput = (form: IngredientForm): IngredientWrite => ({
  name: form.name,
  unit: form.unit as Unit,
  costPerUnit: amount(form.costPerUnit),
  stock: amount(form.stock),
  minStock: amount(form.minStock),
  supplier: optionalText(form.supplier),
});

const isField = (path: string) => /^(name|unit|costPerUnit|stock|minStock|supplier)$/.test(path);
const UNIT_OPTIONS = UNITS.map((u) => ({ value: u, label: UNIT_NAMES[u] }));

/** The record the address names (none on the create route). */
export const loader = recordLoader<Ingredient>('ingredients');

/** Dashboard › Ingredientes › nuevo / editar (docs/design.md §6): unit, cost per unit, stock, minimum stock, supplier. */
export function Component() {
  const { id } = useParams();
  const rf = useResourceForm<Ingredient, IngredientForm>({
    resource: 'ingredients',
    id,
    loader,
    schema: IngredientInput,
    empty: EMPTY,
    toForm,
    toInput,
    isField,
    listPath: paths.dashboard.ingredients,
    savedMessage: (i, created) => (created ? `Creamos el ingrediente «${i.name}».` : `Guardamos «${i.name}».`),
  });
  const { register, control, formState } = rf.form;
  const errors = formState.errors;
  const unit = useWatch({ control, name: 'unit' }) as Unit;
  const per = UNIT_LABELS[unit] ?? '';
  return (
    <ResourceFormPage
      title={id ? 'Editar ingrediente' : 'Nuevo ingrediente'}
      backTo={paths.dashboard.ingredients}
      backLabel="Ingredientes"
      rf={rf}
    >
      {() => (
        <>
          <FormSection title="Datos del ingrediente">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                id="ingredient-name"
                label="Nombre"
                registration={register('name')}
                error={errors.name?.message}
              />
              <SelectField
                id="ingredient-unit"
                label="Unidad"
                options={UNIT_OPTIONS}
                hint="El costo, las existencias y el mínimo se leen en esta unidad."
                registration={register('unit')}
                error={errors.unit?.message}
              />
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
            </div>
          </FormSection>
          <FormSection title="Existencias">
            <div className="grid gap-4 sm:grid-cols-2">
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
          </FormSection>
          <FormActions
            saving={rf.saving}
            cancelTo={paths.dashboard.ingredients}
            submitLabel={id ? 'Guardar cambios' : 'Crear ingrediente'}
          />
        </>
      )}
    </ResourceFormPage>
  );
}
