import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AreaPage } from '../area-page';
import { buttonClass, secondaryButtonClass } from '../ui/button';
import { FormAlert } from './fields';
import { UnsavedChangesDialog } from './unsaved-changes';
import type { ResourceForm } from './use-resource-form';
import type { FieldValues } from 'react-hook-form';
import type { Resource } from '../../lib/api/resource-service';

/** A titled block of a form (a white card). */
export function FormSection({
  title,
  children,
  description,
}: {
  title: string;
  children: ReactNode;
  description?: ReactNode;
}) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6">
      <h2 id={id} className="text-lg font-semibold text-stone-900">
        {title}
      </h2>
      {description ? <div className="mt-1 text-sm text-stone-600">{description}</div> : null}
      <div className="mt-4 space-y-4">{children}</div>
    </section>
  );
}

/** Save and cancel: save is disabled while saving and says so. */
export function FormActions({
  saving,
  cancelTo,
  submitLabel,
}: {
  saving: boolean;
  cancelTo: string;
  submitLabel: string;
}) {
  return (
    <div className="sticky bottom-0 -mx-4 flex gap-2 border-t border-stone-200 bg-stone-50/95 px-4 py-3 sm:static sm:mx-0 sm:justify-end sm:border-0 sm:bg-transparent sm:px-0">
      <Link to={cancelTo} className={`${secondaryButtonClass} flex-1 sm:flex-none`}>
        Cancelar
      </Link>
      <button
        type="submit"
        className={`${buttonClass} flex-1 sm:flex-none`}
        disabled={saving}
        aria-busy={saving || undefined}
      >
        {saving ? 'Guardando…' : submitLabel}
      </button>
    </div>
  );
}

/**
 * The page of a create or edit screen: title, a link back to the list, the record's failure to load,
 * then the form (given the loaded record) with the unsaved-changes dialog.
 */
export function ResourceFormPage<T extends Resource, TForm extends FieldValues, X>({
  title,
  backTo,
  backLabel,
  rf,
  children,
  after,
}: {
  title: string;
  backTo: string;
  backLabel: string;
  rf: ResourceForm<T, TForm, X>;
  children: (record: T | null) => ReactNode;
  /** Sections of the record's page after its form (with forms of their own), once the record is loaded. */
  after?: (record: T | null) => ReactNode;
}) {
  return (
    <AreaPage title={title}>
      <Link
        to={backTo}
        className="-mt-3 mb-4 inline-flex items-center gap-1 text-sm font-medium text-amber-900 hover:underline"
      >
        <ArrowLeft className="size-4" aria-hidden="true" />
        {backLabel}
      </Link>
      {rf.load.state === 'failed' ? (
        <div role="alert" className="space-y-3">
          <p className="text-red-900">{rf.load.message}</p>
          {rf.load.notFound ? null : (
            <button type="button" className={secondaryButtonClass} onClick={rf.retry}>
              Intentar de nuevo
            </button>
          )}
        </div>
      ) : (
        <form onSubmit={rf.submit} noValidate className="grid max-w-4xl gap-6">
          <FormAlert>{rf.formError}</FormAlert>
          {children(rf.load.record)}
        </form>
      )}
      {rf.load.state === 'ready' && after ? after(rf.load.record) : null}
      <UnsavedChangesDialog blocker={rf.blocker} />
    </AreaPage>
  );
}
