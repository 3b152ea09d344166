import { can } from '@hornada/domain/policy';
import type { Settings } from '@hornada/domain/schemas/settings';
import { useEffect, useEffectEvent, useState, type RefObject } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { useStore } from 'zustand';
import type { z } from 'zod';
import { useCompanyId } from '../../components/data-table/resource-client';
import { deleteDroppedFiles, type UploadsHandle } from '../../components/forms/image-fields';
import { useUnsavedChanges } from '../../components/forms/unsaved-changes';
import { authStore } from '../../lib/auth/auth-store';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { settingsApi, type CapacityWarning } from './settings-api';
import { EMPTY_SETTINGS_FORM, toSettingsForm, type SettingsForm } from './settings-form';

export type SettingsLoad =
  { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; settings: Settings };

/** Whether the signed-in role may save the settings (the permission table; the server checks it again). */
export function useCanSaveSettings(): boolean {
  const role = useStore(authStore, (s) => s.user?.role ?? null);
  return role !== null && can(role, 'settings', 'update');
}

/** Reads the company's settings (all of them for the back office). */
export function useSettings(companyId: string | null, attempt = 0): SettingsLoad {
  const [load, setLoad] = useState<SettingsLoad>({ state: 'loading' });
  useEffect(() => {
    if (!companyId) return;
    const controller = new AbortController();
    settingsApi.get(companyId, controller.signal).then(
      (settings) => setLoad({ state: 'ready', settings }),
      (err: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: 'failed',
          message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar la configuración. Intenta de nuevo.',
        });
      },
    );
    return () => controller.abort();
  }, [companyId, attempt]);
  return load;
}

/**
 * A form over the settings document (the settings screen, the bakery's page): loads it, checks with the shared
 * schema in Spanish, saves the form's fields with PATCH (fields another screen owns are left alone), puts the
 * server's problems under their fields, deletes a replaced logo, warns before leaving unsaved changes.
 */
export function useSettingsDocument(options: {
  schema: z.ZodType;
  toInput(form: SettingsForm): Record<string, unknown>;
  savedMessage: string;
  isField(path: string): boolean;
  /** Where to go after a save; none to stay. */
  after?: string;
  /** The logo field's uploads: a saved logo is the settings' now, not deleted when the form is left. */
  uploads?: RefObject<UploadsHandle | null>;
}) {
  const { schema, toInput, savedMessage, isField, after, uploads } = options;
  const companyId = useCompanyId();
  const canSave = useCanSaveSettings();
  const [attempt, setAttempt] = useState(0);
  const load = useSettings(companyId, attempt);
  const [formError, setFormError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<CapacityWarning[]>([]);
  const navigate = useNavigate();
  const form = useForm<SettingsForm>({
    resolver: domainResolver<SettingsForm>(schema, toInput),
    defaultValues: EMPTY_SETTINGS_FORM,
    // On blur and submit: with 'onTouched' a field array validates itself on every append, so a new delivery
    // window was red before anything was typed in it.
    mode: 'onBlur',
  });
  const { isDirty, isSubmitting } = form.formState;
  const { blocker, allowNextNavigation } = useUnsavedChanges(canSave && isDirty && !isSubmitting);
  const [shown, setShown] = useState<Settings | null>(null);
  const loaded = load.state === 'ready' ? load.settings : null;
  const show = useEffectEvent((settings: Settings) => {
    form.reset(toSettingsForm(settings));
    setShown(settings);
  });
  useEffect(() => {
    if (loaded) show(loaded);
  }, [loaded]);

  const submit = form.handleSubmit(async (values) => {
    if (!companyId || !canSave) return;
    setFormError(null);
    const before = shown;
    try {
      const { settings, warnings: found } = await settingsApi.patch(companyId, toInput(values));
      form.reset(toSettingsForm(settings));
      setShown(settings);
      setWarnings(found);
      uploads?.current?.keep(settings.logo ? [settings.logo.path] : []);
      deleteDroppedFiles(companyId, before?.logo ? [before.logo.path] : [], settings.logo ? [settings.logo.path] : []);
      toastStore.getState().show(
        found.length
          ? {
              type: 'warning',
              message: `${savedMessage} Hay horarios con más pedidos que su nuevo cupo: los pedidos se mantienen.`,
              duration: 8000,
            }
          : savedMessage,
      );
      if (after) {
        allowNextNavigation();
        void navigate(after);
      }
    } catch (err) {
      const message = applyServerErrors(err, isField, form.setError);
      setFormError(message);
      toastStore.getState().show({ type: 'error', message: message ?? 'Revisa los campos marcados.' });
    }
  });

  return {
    companyId,
    canSave,
    load,
    retry: () => setAttempt((n) => n + 1),
    form,
    submit,
    formError,
    warnings,
    saving: isSubmitting,
    blocker,
  };
}
