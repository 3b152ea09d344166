import { MeInput, PasswordChangeInput } from '@hornada/domain/identity';
import { CheckCircle2, CircleAlert, MapPin, Plus, Trash2 } from 'lucide-react';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useFieldArray, useForm } from 'react-hook-form';
import { z } from 'zod';
import { useStore } from 'zustand';
import { AreaPage } from '../../components/area-page';
import { FormAlert, PasswordField, TextField } from '../../components/forms/fields';
import { UnsavedChangesDialog, useUnsavedChanges } from '../../components/forms/unsaved-changes';
import { authStore } from '../../lib/auth/auth-store';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';
import { getBakeryName, getMe, resendVerification, updateMe, type Me, type MeUpdate } from './account-api';
import { LoadFailed, LoadingStatus } from '../../components/load-status';

const MAX_ADDRESSES = 10;

/** The server's check, plus: an empty current password is not sent (it cannot be right). */
const PasswordChangeForm = PasswordChangeInput.extend({ currentPassword: z.string().min(1).max(1024) });

interface AddressForm {
  label: string;
  line: string;
  neighborhood: string;
  city: string;
  notes: string;
  lat: string;
  lng: string;
}

interface ProfileForm {
  name: string;
  phone: string;
  addresses: AddressForm[];
}

interface PasswordForm {
  currentPassword: string;
  newPassword: string;
}

const EMPTY_ADDRESS: AddressForm = { label: '', line: '', neighborhood: '', city: '', notes: '', lat: '', lng: '' };

const text = (value: string | null | undefined): string => value ?? '';
const optional = (value: string): string | null => (value.trim() === '' ? null : value);
/** A decimal as people type it here ("4,65" or "4.65"); NaN lets the schema say it is not a number. */
const decimal = (value: string): number | null => (value.trim() === '' ? null : Number(value.trim().replace(',', '.')));

function toForm(me: Me): ProfileForm {
  return {
    name: me.name,
    phone: text(me.phone),
    addresses: me.addresses.map((a) => ({
      label: text(a.label),
      line: a.line,
      neighborhood: text(a.neighborhood),
      city: text(a.city),
      notes: text(a.notes),
      lat: a.lat === null ? '' : String(a.lat),
      lng: a.lng === null ? '' : String(a.lng),
    })),
  };
}

function toInput(form: ProfileForm): MeUpdate {
  return {
    name: form.name,
    phone: optional(form.phone),
    addresses: form.addresses.map((a) => ({
      label: optional(a.label),
      line: a.line,
      neighborhood: optional(a.neighborhood),
      city: optional(a.city),
      notes: optional(a.notes),
      lat: decimal(a.lat),
      lng: decimal(a.lng),
    })),
  };
}

const isProfileField = (path: string) =>
  /^(name|phone|addresses\.\d+\.(label|line|neighborhood|city|notes|lat|lng))$/.test(path);
const isPasswordField = (path: string) => path === 'currentPassword' || path === 'newPassword';

const sectionClass = 'rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6';
const buttonClass =
  'inline-flex items-center justify-center gap-2 rounded-lg bg-amber-900 px-4 py-2.5 font-semibold text-white shadow-sm hover:bg-amber-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';
const secondaryButtonClass =
  'inline-flex items-center justify-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-2 font-medium text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';

type Load = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; me: Me };

/** The profile pages of every area (docs/design.md §6): the account, personal data and addresses, the password. */
export function Component() {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    getMe(controller.signal)
      .then((me) => setLoad({ state: 'ready', me }))
      .catch((err: unknown) => {
        if (controller.signal.aborted) return;
        setLoad({
          state: 'failed',
          message: err instanceof ApiError ? err.userMessage : 'No pudimos cargar tu perfil. Intenta de nuevo.',
        });
      });
    return () => controller.abort();
  }, [attempt]);

  return (
    <AreaPage title="Mi perfil">
      {load.state === 'loading' ? (
        <LoadingStatus>Cargando tu perfil…</LoadingStatus>
      ) : load.state === 'failed' ? (
        <LoadFailed message={load.message} onRetry={() => setAttempt((n) => n + 1)} />
      ) : (
        <div className="grid max-w-3xl gap-6">
          <AccountSection me={load.me} />
          <ProfileSection me={load.me} />
          <PasswordSection />
        </div>
      )}
    </AreaPage>
  );
}

function AccountSection({ me }: { me: Me }) {
  const bakery = useBakeryName(me.companyId);
  return (
    <section aria-labelledby="account-heading" className={sectionClass}>
      <h2 id="account-heading" className="text-lg font-semibold text-stone-900">
        Tu cuenta
      </h2>
      <dl className="mt-3 grid gap-3 sm:grid-cols-[max-content_1fr] sm:gap-x-6">
        <dt className="font-medium text-stone-700">Correo electrónico</dt>
        <dd className="flex flex-wrap items-center gap-2 break-all text-stone-900">
          <span>{me.email}</span>
          {me.emailVerified ? (
            <span className="inline-flex items-center gap-1 rounded-full bg-green-100 px-2 py-0.5 text-sm font-medium text-green-900">
              <CheckCircle2 className="size-4" aria-hidden="true" />
              Verificado
            </span>
          ) : (
            <>
              <span className="inline-flex items-center gap-1 rounded-full bg-amber-100 px-2 py-0.5 text-sm font-medium text-amber-950">
                <CircleAlert className="size-4" aria-hidden="true" />
                Sin verificar
              </span>
              <ResendVerification />
            </>
          )}
        </dd>
        {bakery ? (
          <>
            <dt className="font-medium text-stone-700">Panadería</dt>
            <dd className="text-stone-900">{bakery}</dd>
          </>
        ) : null}
      </dl>
    </section>
  );
}

/** Asks for a new verification link (docs/design.md §1); says what happened next to the button. */
function ResendVerification() {
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'verified'>('idle');
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    setState('sending');
    setError(null);
    try {
      const { sent } = await resendVerification();
      setState(sent ? 'sent' : 'verified');
    } catch (err) {
      setError(err instanceof ApiError ? err.userMessage : 'No pudimos enviar el enlace. Intenta de nuevo.');
      setState('idle');
    }
  };
  return (
    <span className="flex w-full flex-wrap items-center gap-2 break-normal">
      {state === 'sent' || state === 'verified' ? (
        <span role="status" className="text-sm text-stone-700">
          {state === 'sent'
            ? 'Te enviamos un enlace nuevo. Vence en 30 minutos.'
            : 'Tu correo ya está verificado. Recarga la página.'}
        </span>
      ) : (
        <button
          type="button"
          onClick={() => void send()}
          disabled={state === 'sending'}
          className="rounded-lg border border-stone-300 bg-white px-3 py-1.5 text-sm font-semibold text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          {state === 'sending' ? 'Enviando…' : 'Enviar enlace de verificación'}
        </button>
      )}
      {error ? (
        <span role="alert" className="text-sm text-red-900">
          {error}
        </span>
      ) : null}
    </span>
  );
}

function useBakeryName(companyId: string | null): string | null {
  const [name, setName] = useState<string | null>(null);
  useEffect(() => {
    if (!companyId) return;
    const controller = new AbortController();
    // Only a label: when it cannot be read, the row is left out.
    getBakeryName(companyId, controller.signal).then(setName, () => undefined);
    return () => controller.abort();
  }, [companyId]);
  return name;
}

function ProfileSection({ me }: { me: Me }) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    control,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting, isDirty },
  } = useForm<ProfileForm>({
    resolver: domainResolver(MeInput.required(), toInput),
    defaultValues: toForm(me),
    mode: 'onTouched',
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'addresses' });
  const { blocker } = useUnsavedChanges(isDirty && !isSubmitting);
  const addButton = useRef<HTMLButtonElement>(null);

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    let saved: Me;
    try {
      saved = await updateMe(toInput(form));
    } catch (err) {
      setFormError(applyServerErrors(err, isProfileField, setError));
      return;
    }
    reset(toForm(saved));
    toastStore.getState().show('Guardamos tus datos.');
    // The header shows the first word of the name: re-read it. The data is saved either way.
    await authStore
      .getState()
      .refreshUser()
      .catch(() => undefined);
  });

  const focusAfterRemove = useCallback(() => addButton.current?.focus(), []);

  return (
    <section aria-labelledby="profile-heading" className={sectionClass}>
      <h2 id="profile-heading" className="text-lg font-semibold text-stone-900">
        Datos personales
      </h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <FormAlert>{formError}</FormAlert>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="profile-name"
            label="Nombre"
            autoComplete="name"
            registration={register('name')}
            error={errors.name?.message}
          />
          <TextField
            id="profile-phone"
            label="Teléfono"
            labelNote="(opcional)"
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            registration={register('phone')}
            error={errors.phone?.message}
          />
        </div>

        <fieldset className="space-y-4">
          <legend className="font-semibold text-stone-900">Direcciones</legend>
          {fields.length === 0 ? <p className="text-stone-600">Aún no tienes direcciones guardadas.</p> : null}
          {fields.map((field, index) => {
            const e = errors.addresses?.[index];
            const id = (name: string) => `address-${field.id}-${name}`;
            return (
              <fieldset key={field.id} className="rounded-xl border border-stone-200 p-3 sm:p-4">
                <legend className="flex items-center gap-1 px-1 font-medium text-stone-800">
                  <MapPin className="size-4" aria-hidden="true" />
                  Dirección {index + 1}
                </legend>
                <div className="grid gap-3 sm:grid-cols-2">
                  <TextField
                    id={id('label')}
                    label="Nombre de la dirección"
                    labelNote="(opcional)"
                    placeholder="Casa, oficina…"
                    registration={register(`addresses.${index}.label`)}
                    error={e?.label?.message}
                  />
                  <TextField
                    id={id('line')}
                    label="Dirección"
                    autoComplete="street-address"
                    placeholder="Calle 10 # 5-20, apto 301"
                    registration={register(`addresses.${index}.line`)}
                    error={e?.line?.message}
                  />
                  <TextField
                    id={id('neighborhood')}
                    label="Barrio"
                    labelNote="(opcional)"
                    registration={register(`addresses.${index}.neighborhood`)}
                    error={e?.neighborhood?.message}
                  />
                  <TextField
                    id={id('city')}
                    label="Ciudad"
                    labelNote="(opcional)"
                    autoComplete="address-level2"
                    registration={register(`addresses.${index}.city`)}
                    error={e?.city?.message}
                  />
                  <TextField
                    id={id('notes')}
                    label="Indicaciones para el domiciliario"
                    labelNote="(opcional)"
                    className="sm:col-span-2"
                    registration={register(`addresses.${index}.notes`)}
                    error={e?.notes?.message}
                  />
                </div>
                <details className="mt-3" open={Boolean(e?.lat || e?.lng) || undefined}>
                  <summary className="cursor-pointer text-sm font-medium text-amber-900">
                    Ubicación en el mapa (opcional)
                  </summary>
                  <div className="mt-2 grid gap-3 sm:grid-cols-2">
                    <TextField
                      id={id('lat')}
                      label="Latitud"
                      inputMode="decimal"
                      hint="Entre -90 y 90."
                      registration={register(`addresses.${index}.lat`)}
                      error={e?.lat?.message}
                    />
                    <TextField
                      id={id('lng')}
                      label="Longitud"
                      inputMode="decimal"
                      hint="Entre -180 y 180."
                      registration={register(`addresses.${index}.lng`)}
                      error={e?.lng?.message}
                    />
                  </div>
                </details>
                <button
                  type="button"
                  className={`${secondaryButtonClass} mt-3 text-red-800`}
                  onClick={() => {
                    remove(index);
                    focusAfterRemove();
                  }}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                  Quitar dirección {index + 1}
                </button>
              </fieldset>
            );
          })}
          <button
            ref={addButton}
            type="button"
            className={secondaryButtonClass}
            disabled={fields.length >= MAX_ADDRESSES}
            onClick={() => append(EMPTY_ADDRESS)}
          >
            <Plus className="size-4" aria-hidden="true" />
            Agregar dirección
          </button>
          {fields.length >= MAX_ADDRESSES ? (
            <p className="text-sm text-stone-600">Puedes guardar hasta {MAX_ADDRESSES} direcciones.</p>
          ) : null}
        </fieldset>

        <div className="flex flex-wrap items-center gap-3 border-t border-stone-200 pt-4">
          <button type="submit" disabled={isSubmitting} className={buttonClass}>
            {isSubmitting ? 'Guardando…' : 'Guardar cambios'}
          </button>
          {isDirty ? <p className="text-sm text-stone-600">Tienes cambios sin guardar.</p> : null}
        </div>
      </form>
      <UnsavedChangesDialog blocker={blocker} />
    </section>
  );
}

function PasswordSection() {
  const [formError, setFormError] = useState<string | null>(null);
  const email = useStore(authStore, (s) => s.user?.email ?? '');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PasswordForm>({
    resolver: domainResolver(PasswordChangeForm),
    defaultValues: { currentPassword: '', newPassword: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      await authStore.getState().changePassword(form.currentPassword, form.newPassword);
    } catch (err) {
      setFormError(applyServerErrors(err, isPasswordField, setError));
      return;
    }
    reset();
    toastStore.getState().show('Cambiamos tu contraseña. Cerramos tus sesiones en otros dispositivos.');
  });

  return (
    <section aria-labelledby="password-heading" className={sectionClass}>
      <h2 id="password-heading" className="text-lg font-semibold text-stone-900">
        Cambiar contraseña
      </h2>
      <form onSubmit={submit} noValidate className="mt-4 space-y-4">
        <FormAlert>{formError}</FormAlert>
        {/* Lets password managers file the new password under the right account. */}
        <input type="email" name="username" autoComplete="username" value={email} readOnly hidden />
        <PasswordField
          id="password-current"
          label="Contraseña actual"
          autoComplete="current-password"
          registration={register('currentPassword')}
          error={errors.currentPassword?.message}
        />
        <PasswordField
          id="password-new"
          label="Contraseña nueva"
          autoComplete="new-password"
          hint={PASSWORD_RULES_ES}
          registration={register('newPassword')}
          error={errors.newPassword?.message}
        />
        <button type="submit" disabled={isSubmitting} className={buttonClass}>
          {isSubmitting ? 'Cambiando…' : 'Cambiar contraseña'}
        </button>
      </form>
    </section>
  );
}
