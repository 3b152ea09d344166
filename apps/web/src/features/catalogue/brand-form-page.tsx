import { BrandInput, type Brand } from '@hornada/domain/schemas/catalogue';
import { useRef } from 'react';
import { Controller } from 'react-hook-form';
import { useParams } from 'react-router';
import { TextAreaField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalText, textOf } from '../../components/forms/form-values';
import { recordLoader, useResourceForm } from '../../components/forms/use-resource-form';
import { paths } from '../../config/paths';
import {
  deleteDroppedFiles,
  SingleImageField,
  type ImageValue,
  type UploadsHandle,
} from '../../components/forms/image-fields';

interface BrandForm {
  name: string;
  description: string;
  logo: ImageValue | null;
}

const EMPTY: BrandForm = { name: '', description: '', logo: null };

const toForm = (brand: Brand): BrandForm => ({
  name: brand.name,
  description: textOf(brand.description),
  logo: brand.logo,
});

const toInput = (form: BrandForm) => ({
  name: form.name,
  description: optionalText(form.description),
  logo: form.logo ? { path: form.logo.path, alt: form.logo.alt.trim() } : null,
});

const isField = (path: string) => /^(name|description|logo(\..+)?)$/.test(path);

/** The record the address names (none on the create route). */
export const loader = recordLoader<Brand>('brands');

/** Dashboard › Marcas › nueva / editar: name, description and logo. */
export function Component() {
  const { id } = useParams();
  const uploads = useRef<UploadsHandle | null>(null);
  const rf = useResourceForm<Brand, BrandForm>({
    resource: 'brands',
    id,
    loader,
    schema: BrandInput,
    empty: EMPTY,
    toForm,
    toInput,
    isField,
    listPath: paths.dashboard.brands,
    savedMessage: (brand, created) => (created ? `Creamos la marca «${brand.name}».` : `Guardamos «${brand.name}».`),
    onSaved: (saved, before) => {
      uploads.current?.keep(saved.logo ? [saved.logo.path] : []);
      deleteDroppedFiles(rf.companyId, before?.logo ? [before.logo.path] : [], saved.logo ? [saved.logo.path] : []);
    },
  });
  const { register, control, formState } = rf.form;
  const errors = formState.errors;
  return (
    <ResourceFormPage
      title={id ? 'Editar marca' : 'Nueva marca'}
      backTo={paths.dashboard.brands}
      backLabel="Marcas"
      rf={rf}
    >
      {() => (
        <>
          <FormSection title="Datos de la marca">
            <TextField id="brand-name" label="Nombre" registration={register('name')} error={errors.name?.message} />
            <TextAreaField
              id="brand-description"
              label="Descripción"
              labelNote="(opcional)"
              registration={register('description')}
              error={errors.description?.message}
            />
          </FormSection>
          <FormSection title="Logo">
            <Controller
              control={control}
              name="logo"
              render={({ field }) => (
                <SingleImageField
                  companyId={rf.companyId}
                  label="Logo de la marca"
                  value={field.value}
                  onChange={field.onChange}
                  error={errors.logo?.alt?.message ?? errors.logo?.message}
                  uploadsRef={uploads}
                />
              )}
            />
          </FormSection>
          <FormActions
            saving={rf.saving}
            cancelTo={paths.dashboard.brands}
            submitLabel={id ? 'Guardar cambios' : 'Crear marca'}
          />
        </>
      )}
    </ResourceFormPage>
  );
}
