import { useRef } from 'react';
import { Link } from 'react-router';
import { ArrowLeft } from 'lucide-react';
import { AreaPage } from '../../components/area-page';
import { FormAlert } from '../../components/forms/fields';
import { FormActions } from '../../components/forms/form-layout';
import type { UploadsHandle } from '../../components/forms/image-fields';
import { UnsavedChangesDialog } from '../../components/forms/unsaved-changes';
import { secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { BakeryFields } from './bakery-fields';
import { BakeryInput, BAKERY_FIELDS, toBakeryInput } from './settings-form';
import { useSettingsDocument } from './use-settings-document';

export { settingsLoader as loader } from './use-settings-document';

const isField = (path: string) => BAKERY_FIELDS.some((f) => path === f || path.startsWith(`${f}.`));

/** Dashboard › Editar panadería: the public face (name, logo, contact, address), saved by an admin. */
export function Component() {
  const uploads = useRef<UploadsHandle | null>(null);
  const doc = useSettingsDocument({
    schema: BakeryInput,
    toInput: toBakeryInput,
    savedMessage: 'Guardamos los datos de la panadería.',
    isField,
    after: paths.dashboard.showBakery,
    uploads,
  });
  return (
    <AreaPage title="Editar panadería">
      <Link
        to={paths.dashboard.showBakery}
        className="-mt-3 mb-4 inline-flex items-center gap-1 text-sm font-medium text-amber-900 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        Mi panadería
      </Link>
      {doc.load.state === 'failed' ? (
        <div role="alert" className="space-y-3">
          <p className="text-red-900">{doc.load.message}</p>
          <button type="button" className={secondaryButtonClass} onClick={doc.retry}>
            Intentar de nuevo
          </button>
        </div>
      ) : (
        <form onSubmit={(e) => void doc.submit(e)} noValidate className="grid max-w-4xl gap-6">
          <FormAlert>{doc.formError}</FormAlert>
          <BakeryFields form={doc.form} companyId={doc.companyId} uploadsRef={uploads} />
          <FormActions saving={doc.saving} cancelTo={paths.dashboard.showBakery} submitLabel="Guardar cambios" />
        </form>
      )}
      <UnsavedChangesDialog blocker={doc.blocker} />
    </AreaPage>
  );
}
