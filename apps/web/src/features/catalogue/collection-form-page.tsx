import { ProductCollectionInput, type ProductCollection } from '@hornada/domain/schemas/catalogue';
import { useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useParams } from 'react-router';
import { CheckboxField, TextAreaField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalText, parseWhole, textOf } from '../../components/forms/form-values';
import { recordLoader, useResourceForm } from '../../components/forms/use-resource-form';
import { paths } from '../../config/paths';
import {
  deleteDroppedFiles,
  SingleImageField,
  type ImageValue,
  type UploadsHandle,
} from '../../components/forms/image-fields';

interface CollectionForm {
  name: string;
  description: string;
  image: ImageValue | null;
  sortOrder: string;
  active: boolean;
}

const EMPTY: CollectionForm = { name: '', description: '', image: null, sortOrder: '0', active: true };

const toForm = (c: ProductCollection): CollectionForm => ({
  name: c.name,
  description: textOf(c.description),
  image: c.image,
  sortOrder: String(c.sortOrder),
  active: c.active,
});

const toInput = (form: CollectionForm) => ({
  name: form.name,
  description: optionalText(form.description),
  image: form.image ? { path: form.image.path, alt: form.image.alt.trim() } : null,
  sortOrder: form.sortOrder.trim() === '' ? 0 : parseWhole(form.sortOrder),
  active: form.active,
});

const isField = (path: string) => /^(name|description|sortOrder|active|image(\..+)?)$/.test(path);
const paths_ = paths.dashboard;

/** The record the address names (none on the create route). */
export const loader = recordLoader<ProductCollection>('productCollections');

/** Dashboard › Colecciones › nueva / editar: name, description, picture, order in the shop, shown or not. */
export function Component() {
  const { id } = useParams();
  const uploads = useRef<UploadsHandle | null>(null);
  const rf = useResourceForm<ProductCollection, CollectionForm>({
    resource: 'productCollections',
    id,
    loader,
    schema: ProductCollectionInput,
    empty: EMPTY,
    toForm,
    toInput,
    isField,
    listPath: paths_.productCollections,
    savedMessage: (c, created) => (created ? `Creamos la colección «${c.name}».` : `Guardamos «${c.name}».`),
    onSaved: (saved, before) => {
      uploads.current?.keep(saved.image ? [saved.image.path] : []);
      deleteDroppedFiles(rf.companyId, before?.image ? [before.image.path] : [], saved.image ? [saved.image.path] : []);
    },
  });
  const { register, control, formState } = rf.form;
  const errors = formState.errors;
  return (
    <ResourceFormPage
      title={id ? 'Editar colección' : 'Nueva colección'}
      backTo={paths_.productCollections}
      backLabel="Colecciones"
      rf={rf}
    >
      {() => (
        <>
          <FormSection title="Datos de la colección">
            <TextField
              id="collection-name"
              label="Nombre"
              registration={register('name')}
              error={errors.name?.message}
            />
            <TextAreaField
              id="collection-description"
              label="Descripción"
              labelNote="(opcional)"
              registration={register('description')}
              error={errors.description?.message}
            />
          </FormSection>
          <FormSection title="Imagen">
            <Controller
              control={control}
              name="image"
              render={({ field }) => (
                <SingleImageField
                  companyId={rf.companyId}
                  label="Imagen de la colección"
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.image?.alt?.message ?? errors.image?.message}
                  uploadsRef={uploads}
                />
              )}
            />
          </FormSection>
          <FormSection title="En la tienda">
            <CheckboxField
              id="collection-active"
              label="Mostrar en la tienda"
              hint="Una colección inactiva no se ve en la tienda, aunque sus productos sigan activos."
              registration={register('active')}
              error={errors.active?.message}
            />
            <TextField
              id="collection-sort"
              label="Orden"
              inputMode="numeric"
              hint="Las colecciones se muestran de menor a mayor."
              className="sm:max-w-xs"
              registration={register('sortOrder')}
              error={errors.sortOrder?.message}
            />
          </FormSection>
          <FormActions
            saving={rf.saving}
            cancelTo={paths_.productCollections}
            submitLabel={id ? 'Guardar cambios' : 'Crear colección'}
          />
        </>
      )}
    </ResourceFormPage>
  );
}
