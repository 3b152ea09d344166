import { can } from '@hornada/domain/policy';
import type { Settings } from '@hornada/domain/schemas/settings';
import { useEffect, useRef, useState, type RefObject } from 'react';
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
import { readForScreen, type ScreenRead } from '../../lib/api/screen-read';
import { FOLLOWS_NOTHING, useScreenData } from '../../lib/live/use-screen-data';
import { toastStore } from '../../lib/toast-store';
import { settingsApi, type CapacityWarning } from './settings-api';
import { EMPTY_SETTINGS_FORM, toSettingsForm, type SettingsForm } from './settings-form';

/** The settings screens' loader: the company's settings, all of them for the back office. */
export const settingsLoader = ({ request }: { request: Request }) =>
  readForScreen(
    (companyId) => settingsApi.get(companyId, request.signal),
    (err) => (err instanceof ApiError ? err.userMessage : 'No pudimos cargar la configuración. Intenta de nuevo.'),
  );

/** Whether the signed-in role may save the settings (the permission table; the server checks it again). */
export function useCanSaveSettings(): boolean {
  const role = useStore(authStore, (s) => s.user?.role ?? null);
  return role !== null && can(role, 'settings', 'update');
}

/** The settings the screen's loader read (settingsLoader), and a retry. */
export function useSettings(): { load: ScreenRead<Settings>; retry: () => void } {
  const { data: load, reload } = useScreenData(settingsLoader, useCompanyId(), FOLLOWS_NOTHING);
  return { load, retry: reload };
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
  const { load, retry } = useSettings();
  const loaded = load.state === 'ready' ? load.data : null;
  const [formError, setFormError] = useState<string | null>(null);
  const [warnings, setWarnings] = useState<CapacityWarning[]>([]);
  const navigate = useNavigate();
  const form = useForm<SettingsForm>({
    resolver: domainResolver<SettingsForm>(schema, toInput),
    defaultValues: loaded ? toSettingsForm(loaded) : EMPTY_SETTINGS_FORM,
    // On blur and submit: with 'onTouched' a field array validates itself on every append, so a new delivery
    // window was red before anything was typed in it.
    mode: 'onBlur',
  });
  const { isDirty, isSubmitting } = form.formState;
  const { blocker, allowNextNavigation } = useUnsavedChanges(canSave && isDirty && !isSubmitting);
  const [shown, setShown] = useState<Settings | null>(loaded);
  // A retry that read them: the form shows them (the first read is the form's defaults).
  const showing = useRef(loaded);
  useEffect(() => {
    if (!loaded || showing.current === loaded) return;
    showing.current = loaded;
    form.reset(toSettingsForm(loaded));
    setShown(loaded);
  }, [loaded, form]);

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
    retry,
    form,
    submit,
    formError,
    warnings,
    saving: isSubmitting,
    blocker,
  };
}
