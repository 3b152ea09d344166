import { useEffect, useMemo, useRef, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useNavigate, type Params } from 'react-router';
import type { Blocker } from 'react-router';
import type { z } from 'zod';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { ApiError } from '../../lib/api/http';
import type { ResourceName } from '@hornada/domain/policy';
import type { Resource, ResourceService } from '../../lib/api/resource-service';
import { loaderCompanyId } from '../../lib/api/screen-read';
import { FOLLOWS_NOTHING, useScreenData } from '../../lib/live/use-screen-data';
import { toastStore } from '../../lib/toast-store';
import { resourceService, useCompanyId } from '../data-table/resource-client';
import { useUnsavedChanges } from './unsaved-changes';

/** What a form screen's loader read: the record (null to create one) and what else the form offers, or a failure. */
export type RecordLoad<T, X = undefined> =
  { state: 'failed'; message: string; notFound: boolean } | { state: 'ready'; record: T | null; more: X };

/**
 * A form screen's read (its route's loader): the record `id` names of `resource`, none without an id, and what
 * `more` reads beside it (the options its selects offer). A failure is the screen's to say, with a retry unless
 * the record is gone.
 */
export async function readRecord<T extends Resource, X = undefined>(
  resource: ResourceName,
  id: string | null | undefined,
  more?: (companyId: string) => Promise<X>,
): Promise<RecordLoad<T, X>> {
  try {
    const companyId = await loaderCompanyId();
    if (!companyId) throw new Error('no company');
    const [record, extra] = await Promise.all([
      id ? resourceService<T>(resource, companyId).get(id) : null,
      more?.(companyId),
    ]);
    // Without `more`, X is undefined, which is what an absent read gives.
    return { state: 'ready', record, more: extra as X };
  } catch (err) {
    const notFound = err instanceof ApiError && err.status === 404;
    return {
      state: 'failed',
      notFound,
      message: notFound
        ? 'No encontramos este registro: puede que lo hayan eliminado.'
        : err instanceof ApiError
          ? err.userMessage
          : 'No pudimos cargarlo. Intenta de nuevo.',
    };
  }
}

/** The loader of a form screen whose record's id is the route's `:id` (none on the create route). */
export function recordLoader<T extends Resource>(resource: ResourceName) {
  return ({ params }: { params: { id?: string } }) => readRecord<T>(resource, params.id);
}

export interface ResourceFormOptions<T extends Resource, TForm extends FieldValues, X> {
  /** The API's resource name (`products`, `productCollections`…). */
  resource: ResourceName;
  /** The record to edit; none to create one. */
  id?: string | undefined;
  /** The screen's loader (readRecord): the form reads what it answered, and reads it again for a retry. */
  loader: (args: { request: Request; params: Params }) => Promise<RecordLoad<T, X>>;
  /** The shared schema of what the API takes (packages/domain), e.g. `ProductInput`. */
  schema: z.ZodType;
  /** A new record's form. */
  empty: TForm;
  toForm(record: T): TForm;
  /** The body the API takes, from the form's strings (form-values.ts). */
  toInput(form: TForm): unknown;
  /** Which error paths of the server are fields of this form (the others show above it). */
  isField(path: string): boolean;
  /** Where to go after saving (the list). */
  listPath: string;
  /** The toast after saving. */
  savedMessage(record: T, created: boolean): string;
  /** Runs after a save, before leaving the form (e.g. delete the files the record no longer uses). */
  onSaved?(saved: T, before: T | null): void;
}

export interface ResourceForm<T extends Resource, TForm extends FieldValues, X = undefined> {
  load: RecordLoad<T, X>;
  retry(): void;
  form: UseFormReturn<TForm>;
  submit(event?: React.BaseSyntheticEvent): Promise<void>;
  /** A failed save's message for the whole form (null when every problem is under its field). */
  formError: string | null;
  saving: boolean;
  blocker: Blocker;
  companyId: string | null;
  service: ResourceService<T> | null;
  creating: boolean;
}

/**
 * A create or edit screen of one resource: reads the record, checks the form with the shared schema (Spanish
 * messages under each field, form-rules.ts), saves (create, or PUT to replace every writable field), puts the
 * server's per-field problems under their fields, toasts the outcome, warns before leaving unsaved changes,
 * and goes back to the list.
 */
export function useResourceForm<T extends Resource, TForm extends FieldValues, X = undefined>(
  options: ResourceFormOptions<T, TForm, X>,
): ResourceForm<T, TForm, X> {
  const { resource, id, loader, schema, empty, toForm, toInput, isField, listPath, savedMessage, onSaved } = options;
  const companyId = useCompanyId();
  const service = useMemo(() => (companyId ? resourceService<T>(resource, companyId) : null), [resource, companyId]);
  // A form being filled in is not replaced by changes made elsewhere: it follows nothing live.
  const { data: load, reload } = useScreenData(loader, companyId, FOLLOWS_NOTHING);
  const [formError, setFormError] = useState<string | null>(null);
  const navigate = useNavigate();

  const valuesOf = (read: RecordLoad<T, X>) => (read.state === 'ready' && read.record ? toForm(read.record) : empty);
  const form = useForm<TForm>({
    resolver: domainResolver<TForm>(schema, toInput),
    defaultValues: valuesOf(load) as DefaultValues<TForm>,
    mode: 'onTouched',
  });
  const { isDirty, isSubmitting } = form.formState;
  const { blocker, allowNextNavigation } = useUnsavedChanges(isDirty && !isSubmitting);

  // Another record's address on the same screen, or a retry that read it: the form shows what was read.
  const shown = useRef(load);
  useEffect(() => {
    if (shown.current === load) return;
    shown.current = load;
    if (load.state === 'ready') form.reset(valuesOf(load));
  });

  const submit = form.handleSubmit(async (values) => {
    if (!service) return;
    setFormError(null);
    let saved: T;
    try {
      const input = toInput(values) as Partial<T>;
      saved = id ? await service.update(id, input) : await service.create(input);
    } catch (err) {
      const message = applyServerErrors(err, isField, form.setError);
      setFormError(message);
      toastStore.getState().show({ type: 'error', message: message ?? 'Revisa los campos marcados.' });
      return;
    }
    form.reset(toForm(saved));
    onSaved?.(saved, load.state === 'ready' ? load.record : null);
    toastStore.getState().show(savedMessage(saved, !id));
    allowNextNavigation();
    void navigate(listPath);
  });

  return {
    load,
    retry: reload,
    form,
    submit,
    formError,
    saving: isSubmitting,
    blocker,
    companyId,
    service,
    creating: !id,
  };
}
