import { useEffect, useEffectEvent, useState } from 'react';
import { useForm, type DefaultValues, type FieldValues, type UseFormReturn } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { Blocker } from 'react-router';
import type { z } from 'zod';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { ApiError } from '../../lib/api/http';
import type { Resource, ResourceService } from '../../lib/api/resource-service';
import { toastStore } from '../../lib/toast-store';
import { resourceService, useCompanyId } from '../data-table/resource-client';
import { useUnsavedChanges } from './unsaved-changes';

export type RecordLoad<T> =
  { state: 'loading' } | { state: 'failed'; message: string; notFound: boolean } | { state: 'ready'; record: T | null };

export interface ResourceFormOptions<T extends Resource, TForm extends FieldValues> {
  /** The API's resource name (`products`, `productCollections`…). */
  resource: string;
  /** The record to edit; none to create one. */
  id?: string | undefined;
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

export interface ResourceForm<T extends Resource, TForm extends FieldValues> {
  load: RecordLoad<T>;
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
export function useResourceForm<T extends Resource, TForm extends FieldValues>(
  options: ResourceFormOptions<T, TForm>,
): ResourceForm<T, TForm> {
  const { resource, id, schema, empty, toForm, toInput, isField, listPath, savedMessage, onSaved } = options;
  const companyId = useCompanyId();
  const [service, setService] = useState<ResourceService<T> | null>(null);
  const [load, setLoad] = useState<RecordLoad<T>>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [formError, setFormError] = useState<string | null>(null);
  const navigate = useNavigate();

  const form = useForm<TForm>({
    resolver: domainResolver<TForm>(schema, toInput),
    defaultValues: empty as DefaultValues<TForm>,
    mode: 'onTouched',
  });
  const { isDirty, isSubmitting } = form.formState;
  const { blocker, allowNextNavigation } = useUnsavedChanges(isDirty && !isSubmitting);

  // The screen's mapper as it is when the record arrives, without reloading when the screen re-renders.
  const showRecord = useEffectEvent((record: T) => form.reset(toForm(record)));
  useEffect(() => {
    if (!companyId) return;
    const svc = resourceService<T>(resource, companyId);
    setService(() => svc);
    if (!id) {
      setLoad({ state: 'ready', record: null });
      return;
    }
    let live = true;
    setLoad({ state: 'loading' });
    svc.get(id).then(
      (record) => {
        if (!live) return;
        showRecord(record);
        setLoad({ state: 'ready', record });
      },
      (err: unknown) => {
        if (!live) return;
        const notFound = err instanceof ApiError && err.status === 404;
        setLoad({
          state: 'failed',
          notFound,
          message: notFound
            ? 'No encontramos este registro: puede que lo hayan eliminado.'
            : err instanceof ApiError
              ? err.userMessage
              : 'No pudimos cargarlo. Intenta de nuevo.',
        });
      },
    );
    return () => {
      live = false;
    };
  }, [companyId, resource, id, attempt]);

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
    retry: () => setAttempt((n) => n + 1),
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
