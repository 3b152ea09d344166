import { ALLERGENS } from '@hornada/domain/constants';
import { ProductInput, type Product } from '@hornada/domain/schemas/catalogue';
import { useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useParams, type Params } from 'react-router';
import { CheckboxField, SelectField, TextAreaField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalId, optionalText, optionalWhole, parseWhole, textOf } from '../../components/forms/form-values';
import { readRecord, useResourceForm } from '../../components/forms/use-resource-form';
import { paths } from '../../config/paths';
import { readOptions, type Option } from './catalogue-options';
import {
  deleteDroppedFiles,
  ImagesField,
  type ImageValue,
  type UploadsHandle,
} from '../../components/forms/image-fields';

interface ProductForm {
  name: string;
  description: string;
  price: string;
  b2bPrice: string;
  collectionId: string;
  brandId: string;
  recipeId: string;
  images: ImageValue[];
  active: boolean;
  allergens: string[];
  sortOrder: string;
}

const EMPTY: ProductForm = {
  name: '',
  description: '',
  price: '',
  b2bPrice: '',
  collectionId: '',
  brandId: '',
  recipeId: '',
  images: [],
  active: true,
  allergens: [],
  sortOrder: '0',
};

const toForm = (p: Product): ProductForm => ({
  name: p.name,
  description: textOf(p.description),
  price: String(p.price),
  b2bPrice: textOf(p.b2bPrice),
  collectionId: p.collectionId ?? '',
  brandId: p.brandId ?? '',
  recipeId: p.recipeId ?? '',
  images: p.images,
  active: p.active,
  allergens: [...p.allergens],
  sortOrder: String(p.sortOrder),
});

const toInput = (form: ProductForm) => ({
  name: form.name,
  description: optionalText(form.description),
  price: form.price.trim() === '' ? undefined : parseWhole(form.price),
  b2bPrice: optionalWhole(form.b2bPrice),
  collectionId: optionalId(form.collectionId),
  brandId: optionalId(form.brandId),
  recipeId: optionalId(form.recipeId),
  images: form.images.map((image) => ({ ...image, alt: image.alt.trim() })),
  active: form.active,
  // A single checked box comes as a string, none as false (react-hook-form's checkbox groups).
  allergens: Array.isArray(form.allergens) ? form.allergens : form.allergens ? [form.allergens] : [],
  sortOrder: form.sortOrder.trim() === '' ? 0 : parseWhole(form.sortOrder),
});

const isField = (path: string) =>
  /^(name|description|price|b2bPrice|collectionId|brandId|recipeId|active|allergens|sortOrder|images(\.\d+\.alt)?)$/.test(
    path,
  );

interface ProductChoices {
  collections: Option[];
  brands: Option[];
  recipes: Option[];
}
const NO_CHOICES: ProductChoices = { collections: [], brands: [], recipes: [] };

const imagePaths = (images: readonly { path: string }[]) => images.map((image) => image.path);
const d = paths.dashboard;

/** The product the address names (none on the create route) and what its selects offer. */
export const loader = ({ params }: { params: Params }) =>
  readRecord<Product, ProductChoices>('products', params.id, async (companyId) => {
    const [collections, brands, recipes] = await Promise.all([
      readOptions('productCollections', companyId),
      readOptions('brands', companyId),
      readOptions('recipes', companyId),
    ]);
    return { collections, brands, recipes };
  });

/** Dashboard › Productos › nuevo / editar: what the shop shows, the prices, the photos, the recipe. */
export function Component() {
  const { id } = useParams();
  const uploads = useRef<UploadsHandle | null>(null);
  const rf = useResourceForm<Product, ProductForm, ProductChoices>({
    resource: 'products',
    id,
    loader,
    schema: ProductInput,
    empty: EMPTY,
    toForm,
    toInput,
    isField,
    listPath: d.products,
    savedMessage: (p, created) => (created ? `Creamos «${p.name}». Ya está en la tienda.` : `Guardamos «${p.name}».`),
    onSaved: (saved, before) => {
      uploads.current?.keep(imagePaths(saved.images));
      deleteDroppedFiles(rf.companyId, imagePaths(before?.images ?? []), imagePaths(saved.images));
    },
  });
  const { collections, brands, recipes } = rf.load.state === 'ready' ? rf.load.more : NO_CHOICES;
  const { register, control, formState } = rf.form;
  const errors = formState.errors;
  const imageErrors = Array.isArray(errors.images) ? errors.images.map((e) => e?.alt?.message) : [];

  return (
    <ResourceFormPage
      title={id ? 'Editar producto' : 'Nuevo producto'}
      backTo={d.products}
      backLabel="Productos"
      rf={rf}
    >
      {() => (
        <>
          <FormSection title="Producto">
            <TextField id="product-name" label="Nombre" registration={register('name')} error={errors.name?.message} />
            <TextAreaField
              id="product-description"
              label="Descripción"
              labelNote="(opcional)"
              hint="Cómo es, cómo se conserva, para cuántas personas alcanza."
              registration={register('description')}
              error={errors.description?.message}
            />
          </FormSection>

          <FormSection title="Precios" description="En pesos, sin decimales.">
            <div className="grid gap-4 sm:grid-cols-2">
              <TextField
                id="product-price"
                label="Precio"
                inputMode="numeric"
                placeholder="4500"
                registration={register('price')}
                error={errors.price?.message}
              />
              <TextField
                id="product-b2b-price"
                label="Precio mayorista"
                labelNote="(opcional)"
                inputMode="numeric"
                hint="Lo que paga un cliente mayorista sin precio propio. Nunca se muestra en la tienda."
                registration={register('b2bPrice')}
                error={errors.b2bPrice?.message}
              />
            </div>
          </FormSection>

          <FormSection title="Fotos">
            <Controller
              control={control}
              name="images"
              render={({ field }) => (
                <ImagesField
                  companyId={rf.companyId}
                  value={field.value}
                  onChange={field.onChange}
                  errors={imageErrors}
                  uploadsRef={uploads}
                />
              )}
            />
            {!Array.isArray(errors.images) && errors.images?.message ? (
              <p className="text-sm font-medium text-red-700">{errors.images.message}</p>
            ) : null}
          </FormSection>

          <FormSection title="Organización">
            <div className="grid gap-4 sm:grid-cols-2">
              <SelectField
                id="product-collection"
                label="Colección"
                emptyLabel="Sin colección"
                options={collections}
                registration={register('collectionId')}
                error={errors.collectionId?.message}
              />
              <SelectField
                id="product-brand"
                label="Marca"
                emptyLabel="Sin marca"
                options={brands}
                registration={register('brandId')}
                error={errors.brandId?.message}
              />
              <SelectField
                id="product-recipe"
                label="Receta"
                emptyLabel="Sin receta"
                hint="Con su receta, el producto muestra su costo y su margen."
                options={recipes}
                registration={register('recipeId')}
                error={errors.recipeId?.message}
              />
              <TextField
                id="product-sort"
                label="Orden"
                inputMode="numeric"
                hint="Los productos se muestran de menor a mayor."
                registration={register('sortOrder')}
                error={errors.sortOrder?.message}
              />
            </div>
            <CheckboxField
              id="product-active"
              label="Disponible en la tienda"
              hint="Un producto inactivo no se ve en la tienda ni se puede pedir."
              registration={register('active')}
              error={errors.active?.message}
            />
          </FormSection>

          <FormSection title="Alérgenos">
            <fieldset aria-describedby={errors.allergens ? 'product-allergens-error' : undefined}>
              <legend className="sr-only">Alérgenos que contiene</legend>
              <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
                {ALLERGENS.map((allergen) => (
                  <label
                    key={allergen}
                    className="flex items-center gap-2 rounded-lg border border-stone-200 px-3 py-2"
                  >
                    <input
                      type="checkbox"
                      value={allergen}
                      {...register('allergens')}
                      className="size-4 accent-amber-800"
                    />
                    <span>{allergen.charAt(0).toUpperCase() + allergen.slice(1)}</span>
                  </label>
                ))}
              </div>
              {errors.allergens?.message ? (
                <p id="product-allergens-error" className="mt-1 text-sm font-medium text-red-700">
                  {errors.allergens.message}
                </p>
              ) : null}
            </fieldset>
          </FormSection>

          <FormActions
            saving={rf.saving}
            cancelTo={d.products}
            submitLabel={id ? 'Guardar cambios' : 'Crear producto'}
          />
        </>
      )}
    </ResourceFormPage>
  );
}
