import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import { dayInZone } from '@hornada/domain/days';
import { SettingsInput } from '@hornada/domain/schemas/settings';
import { Lock, Plus, Trash2, TriangleAlert } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Controller, useFieldArray, type UseFormReturn } from 'react-hook-form';
import { AreaPage } from '../../components/area-page';
import { CheckboxField, FormAlert, TextAreaField, TextField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { parseWhole } from '../../components/forms/form-values';
import type { UploadsHandle } from '../../components/forms/image-fields';
import { UnsavedChangesDialog } from '../../components/forms/unsaved-changes';
import { buttonClass, iconButtonClass, secondaryButtonClass } from '../../components/ui/button';
import { BakeryFields } from './bakery-fields';
import { BlackoutCalendar, longDay } from './blackout-calendar';
import { TIME_ZONES, TimeZoneField } from './time-zone-field';
import { settingsApi, type CapacityWarning, type WindowBooking } from './settings-api';
import { PAYMENT_LABELS_ES, toSettingsInput, WEEKDAYS, type SettingsForm } from './settings-form';
import { useSettingsDocument } from './use-settings-document';

export { settingsLoader as loader } from './use-settings-document';

/** Every path of the settings is a field of this screen. */
const isField = () => true;

/** Dashboard › Configuración: every setting of docs/design.md §4, grouped as a baker thinks of them. Admins save. */
export function Component() {
  const uploads = useRef<UploadsHandle | null>(null);
  const doc = useSettingsDocument({
    schema: SettingsInput,
    toInput: toSettingsInput,
    savedMessage: 'Guardamos la configuración.',
    isField,
    uploads,
  });
  const { form, canSave, load } = doc;
  const bookings = useBookings(doc.companyId, doc.warnings);

  return (
    <AreaPage title="Configuración">
      {load.state === 'failed' ? (
        <div role="alert" className="space-y-3">
          <p className="text-red-900">{load.message}</p>
          <button type="button" className={secondaryButtonClass} onClick={doc.retry}>
            Intentar de nuevo
          </button>
        </div>
      ) : (
        <form
          onSubmit={(e) => {
            if (doc.saving) e.preventDefault();
            else void doc.submit(e);
          }}
          noValidate
          className="grid max-w-4xl gap-6"
        >
          {canSave ? null : (
            <p
              role="note"
              className="flex gap-2 rounded-lg border border-stone-300 bg-stone-100 px-3 py-2 text-stone-800"
            >
              <Lock className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
              Puedes ver la configuración, pero solo un administrador de la panadería puede cambiarla.
            </p>
          )}
          <FormAlert>{doc.formError}</FormAlert>
          <fieldset disabled={!canSave} className="grid min-w-0 gap-6">
            <legend className="sr-only">Configuración de la panadería</legend>
            <BakeryFields form={form} companyId={doc.companyId} uploadsRef={uploads} />
            <DeliverySection form={form} bookings={bookings} canSave={canSave} />
            <PaymentSection form={form} />
            <FormSection title="Costos" description="El margen con el que se comparan las recetas y sus precios.">
              <TextField
                id="settings-target-margin"
                label="Margen objetivo (%)"
                inputMode="decimal"
                registration={form.register('targetMargin')}
                error={form.formState.errors.targetMargin?.message}
                className="max-w-xs"
              />
            </FormSection>
            <FormSection
              title="Política de privacidad"
              description="Se muestra en la página «Privacidad» de la tienda."
            >
              <TextAreaField
                id="settings-privacy"
                label="Texto de la política"
                rows={8}
                registration={form.register('privacyPolicy')}
                error={form.formState.errors.privacyPolicy?.message}
              />
            </FormSection>
            <DomainsSection form={form} />
            <FormSection
              title="Zona horaria"
              description="Define qué es «hoy» para los pedidos, las entregas y los reportes."
            >
              <Controller
                control={form.control}
                name="timeZone"
                render={({ field, fieldState }) => (
                  <TimeZoneField
                    id="settings-time-zone"
                    value={field.value}
                    onChange={field.onChange}
                    onBlur={field.onBlur}
                    error={fieldState.error?.message}
                    disabled={!canSave}
                    className="max-w-sm"
                  />
                )}
              />
            </FormSection>
          </fieldset>
          {canSave ? (
            <div className="sticky bottom-0 -mx-4 flex justify-end border-t border-stone-200 bg-stone-50/95 px-4 py-3 sm:static sm:mx-0 sm:border-0 sm:bg-transparent sm:px-0">
              <button type="submit" className={`${buttonClass} w-full sm:w-auto`} disabled={doc.saving}>
                {doc.saving ? 'Guardando…' : 'Guardar configuración'}
              </button>
            </div>
          ) : null}
        </form>
      )}
      <UnsavedChangesDialog blocker={doc.blocker} />
    </AreaPage>
  );
}

/** Each window's busiest upcoming day, read again after each save (a save's own warnings are the freshest). */
function useBookings(companyId: string | null, saved: readonly CapacityWarning[]): WindowBooking[] {
  const [bookings, setBookings] = useState<WindowBooking[]>([]);
  useEffect(() => {
    if (!companyId) return;
    const controller = new AbortController();
    settingsApi.bookings(companyId, controller.signal).then(setBookings, () => undefined);
    return () => controller.abort();
  }, [companyId, saved]);
  return bookings;
}

function DeliverySection({
  form,
  bookings,
  canSave,
}: {
  form: UseFormReturn<SettingsForm>;
  bookings: readonly WindowBooking[];
  canSave: boolean;
}) {
  const { register, control, formState, watch } = form;
  const errors = formState.errors;
  const windows = useFieldArray({ control, name: 'deliveryWindows' });
  const timeZone = watch('timeZone') || DEFAULT_TIME_ZONE;
  const today = dayInZone(new Date(), TIME_ZONES.includes(timeZone) ? timeZone : DEFAULT_TIME_ZONE);
  const daysError = errors.deliveryDays?.message ?? errors.deliveryDays?.root?.message;
  return (
    <FormSection title="Domicilios" description="Qué días y en qué horarios entregas, y cuánto cuesta.">
      <fieldset aria-describedby={daysError ? 'settings-days-error' : undefined}>
        <legend className="font-medium text-stone-800">Días de entrega</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {WEEKDAYS.map((d) => (
            <label key={d.value} className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                value={d.value}
                {...register('deliveryDays')}
                className="size-5 rounded border-stone-400 accent-amber-800"
              />
              {d.label}
            </label>
          ))}
        </div>
        {daysError ? (
          <p id="settings-days-error" className="mt-1 text-sm font-medium text-red-700">
            {daysError}
          </p>
        ) : null}
      </fieldset>

      <fieldset className="space-y-3">
        <legend className="font-medium text-stone-800">Horarios de entrega</legend>
        <p className="text-sm text-stone-600">
          Sin horarios, el cliente elige solo el día. El cupo es cuántos pedidos caben en el horario cada día (vacío:
          sin límite).
        </p>
        {windows.fields.length === 0 ? <p className="text-sm text-stone-700">Todavía no hay horarios.</p> : null}
        <ul className="space-y-3">
          {windows.fields.map((field, i) => {
            const e = errors.deliveryWindows?.[i];
            const current = watch(`deliveryWindows.${i}`);
            const capacity = current?.capacity?.trim() ? parseWhole(current.capacity) : null;
            const busiest = bookings.find((b) => b.windowId === current?.id);
            const over = capacity !== null && Number.isFinite(capacity) && busiest && busiest.booked > capacity;
            const n = i + 1;
            return (
              <li key={field.id} className="rounded-xl border border-stone-200 p-3">
                <div className="grid grid-cols-2 gap-3 sm:grid-cols-[1fr_9.5rem_9.5rem_6rem_auto] sm:items-start">
                  <TextField
                    id={`window-${n}-label`}
                    className="col-span-2 sm:col-span-1"
                    label={`Nombre del horario ${n}`}
                    placeholder="Mañana"
                    registration={register(`deliveryWindows.${i}.label`)}
                    error={e?.label?.message ?? e?.id?.message}
                  />
                  <TextField
                    id={`window-${n}-start`}
                    label="Desde"
                    type="time"
                    registration={register(`deliveryWindows.${i}.start`, {
                      deps: windows.fields.map((_, j) => `deliveryWindows.${j}.start` as const),
                    })}
                    error={e?.start?.message}
                  />
                  <TextField
                    id={`window-${n}-end`}
                    label="Hasta"
                    type="time"
                    registration={register(`deliveryWindows.${i}.end`, {
                      deps: windows.fields.map((_, j) => `deliveryWindows.${j}.start` as const),
                    })}
                    error={e?.end?.message}
                  />
                  <TextField
                    id={`window-${n}-capacity`}
                    label="Cupo"
                    inputMode="numeric"
                    placeholder="Sin límite"
                    registration={register(`deliveryWindows.${i}.capacity`)}
                    error={e?.capacity?.message}
                  />
                  {canSave ? (
                    <button
                      type="button"
                      className={`${iconButtonClass} mt-7 self-start`}
                      aria-label={`Quitar el horario ${n}`}
                      onClick={() => windows.remove(i)}
                    >
                      <Trash2 className="size-5" aria-hidden="true" />
                    </button>
                  ) : null}
                </div>
                {over ? (
                  <p
                    role="status"
                    className="mt-2 flex gap-2 rounded-lg border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950"
                  >
                    <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
                    Ya hay {busiest.booked} pedidos para el {longDay(busiest.date)} en este horario. Se mantienen todos,
                    pero no entrarán más pedidos ese día hasta que haya cupo.
                  </p>
                ) : null}
              </li>
            );
          })}
        </ul>
        {canSave ? (
          <button
            type="button"
            className={secondaryButtonClass}
            onClick={() =>
              windows.append({ id: newWindowId(), label: '', start: '', end: '', capacity: '' }, { shouldFocus: true })
            }
          >
            <Plus className="size-4" aria-hidden="true" />
            Agregar horario
          </button>
        ) : null}
      </fieldset>

      <fieldset className="space-y-2">
        <legend className="font-medium text-stone-800">Días sin entregas</legend>
        <p className="text-sm text-stone-600">Festivos o días cerrados: desaparecen del calendario de la tienda.</p>
        <Controller
          control={control}
          name="blackoutDates"
          render={({ field }) => (
            <BlackoutCalendar value={field.value} onChange={field.onChange} today={today} disabled={!canSave} />
          )}
        />
      </fieldset>

      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="settings-lead-hours"
          label="Anticipación del pedido (horas)"
          hint="Cuántas horas antes de un horario se cierra para pedidos."
          inputMode="numeric"
          registration={register('orderLeadHours')}
          error={errors.orderLeadHours?.message}
        />
        <TextField
          id="settings-production-days"
          label="Días de preparación"
          hint="Cuántos días antes de la entrega se prepara un pedido."
          inputMode="numeric"
          registration={register('productionLeadDays')}
          error={errors.productionLeadDays?.message}
        />
        <TextField
          id="settings-delivery-fee"
          label="Costo del domicilio"
          inputMode="numeric"
          registration={register('deliveryFee')}
          error={errors.deliveryFee?.message}
        />
        <TextField
          id="settings-free-from"
          label="Domicilio gratis desde"
          labelNote="(opcional)"
          inputMode="numeric"
          registration={register('freeDeliveryFrom')}
          error={errors.freeDeliveryFrom?.message}
        />
        <TextField
          id="settings-minimum"
          label="Pedido mínimo"
          inputMode="numeric"
          registration={register('minimumOrder')}
          error={errors.minimumOrder?.message}
        />
      </div>
      <CheckboxField
        id="settings-pickup"
        label="Se puede recoger en la panadería"
        registration={register('pickupEnabled')}
      />
    </FormSection>
  );
}

/** A window's id: orders keep it, so it never changes once saved. */
function newWindowId(): string {
  return `h${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/** Custom host names the bakery's shop also answers at (docs/design.md §4). */
function DomainsSection({ form }: { form: UseFormReturn<SettingsForm> }) {
  const error = form.formState.errors.domains as
    { message?: string; [line: number]: { message?: string } | undefined } | undefined;
  const message = error?.message ?? Object.values(error ?? {}).find((e) => typeof e === 'object')?.message;
  return (
    <FormSection
      title="Dominios propios"
      description="Tu tienda ya tiene su dirección en Hornada; también puede abrirse en un dominio tuyo."
    >
      <TextAreaField
        id="settings-domains"
        label="Dominios"
        labelNote="(opcional)"
        hint="Uno por línea, sin https:// ni barras (por ejemplo tienda.tupanaderia.co). Apunta su DNS a Hornada."
        rows={3}
        registration={form.register('domains')}
        error={message}
      />
    </FormSection>
  );
}

function PaymentSection({ form }: { form: UseFormReturn<SettingsForm> }) {
  const { register, formState } = form;
  const errors = formState.errors;
  const methodsError = errors.paymentMethods?.message ?? errors.paymentMethods?.root?.message;
  return (
    <FormSection title="Pagos" description="Cómo te pueden pagar los clientes de la tienda.">
      <fieldset aria-describedby={methodsError ? 'settings-methods-error' : undefined}>
        <legend className="font-medium text-stone-800">Medios de pago</legend>
        <div className="mt-2 flex flex-wrap gap-x-5 gap-y-2">
          {(Object.keys(PAYMENT_LABELS_ES) as (keyof typeof PAYMENT_LABELS_ES)[]).map((m) => (
            <label key={m} className="inline-flex items-center gap-2">
              <input
                type="checkbox"
                value={m}
                {...register('paymentMethods')}
                className="size-5 rounded border-stone-400 accent-amber-800"
              />
              {PAYMENT_LABELS_ES[m]}
            </label>
          ))}
        </div>
        {methodsError ? (
          <p id="settings-methods-error" className="mt-1 text-sm font-medium text-red-700">
            {methodsError === 'Agrega al menos 1.' ? 'Elige al menos un medio de pago.' : methodsError}
          </p>
        ) : null}
      </fieldset>
      <TextAreaField
        id="settings-transfer"
        label="Instrucciones para transferencias"
        labelNote="(opcional)"
        hint="Banco, tipo y número de cuenta, titular. Se muestran al confirmar un pedido por transferencia."
        registration={register('transferInstructions')}
        error={errors.transferInstructions?.message}
      />
      <TextField
        id="settings-new-order-email"
        label="Correo para avisos de pedidos nuevos"
        labelNote="(opcional)"
        type="email"
        hint="Te enviamos cada pedido que llega por la tienda en línea. Déjalo vacío para no recibir avisos."
        registration={register('newOrderEmail')}
        error={errors.newOrderEmail?.message}
      />
    </FormSection>
  );
}
