import { PAYMENT_METHOD_ES } from '@hornada/domain/order-status';
import type { OrderPaymentMethod } from '@hornada/domain/schemas/orders';
import { AlertTriangle } from 'lucide-react';
import type { UseFormReturn } from 'react-hook-form';
import { inputClass } from '../../components/auth-card';
import { FieldMessages, fieldAria, TextField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { LocationPin } from '../../components/forms/location-pin';
import type { Settings } from './api';
import { ALL_DAY_WINDOW, pinOf, type EntryForm } from './entry-form';
import type { DayChoice, WindowChoice } from './entry-rules';
import { radioClass } from './party-section';

const weekday = new Intl.DateTimeFormat('es-CO', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' });

/** '2026-11-24' → 'Hoy, martes 24 de noviembre' (the day is a calendar day: formatted at UTC noon). */
export function dayLabel(date: string, index: number, today: string): string {
  const text = weekday.format(new Date(`${date}T12:00:00Z`));
  const relative = date === today ? 'Hoy, ' : index <= 1 && date > today && isNextDay(today, date) ? 'Mañana, ' : '';
  return `${relative}${text}`;
}

function isNextDay(today: string, date: string): boolean {
  const next = new Date(`${today}T12:00:00Z`);
  next.setUTCDate(next.getUTCDate() + 1);
  return next.toISOString().slice(0, 10) === date;
}

function windowNote(w: WindowChoice): string | null {
  if (w.full) return `Lleno (${w.capacity ?? 0} de ${w.capacity ?? 0})`;
  if (w.remaining !== null && w.remaining <= 3) return `Quedan ${w.remaining}`;
  return null;
}

/** Delivery or pickup, the address, the day and the window, with the warnings staff may pass. */
export function ScheduleSection({
  form,
  settings,
  days,
  today,
}: {
  form: UseFormReturn<EntryForm>;
  settings: Settings;
  days: DayChoice[];
  /** Today in the bakery's zone (YYYY-MM-DD). */
  today: string;
}) {
  const { register, watch, setValue, formState } = form;
  const { errors } = formState;
  const fulfillment = watch('fulfillment');
  const dueDate = watch('dueDate');
  const windowId = watch('window');
  const day = days.find((d) => d.date === dueDate);
  const hasWindows = settings.deliveryWindows.length > 0;
  const chosen = day?.windows.find((w) => (w.id ?? ALL_DAY_WINDOW) === windowId) ?? null;
  const lead = settings.orderLeadHours;
  const allDay = !hasWindows && day?.windows[0];
  // The pin as typed, when both coordinates are valid: shown with its map link.
  const typed = pinOf(watch('address'));
  const typedPin = typed.lat !== null && typed.lng !== null ? { lat: typed.lat, lng: typed.lng } : null;

  return (
    <FormSection title="Entrega">
      {settings.pickupEnabled ? (
        <fieldset>
          <legend className="font-medium text-stone-800">¿Cómo recibe el pedido?</legend>
          <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" value="delivery" className={radioClass} {...register('fulfillment')} />A domicilio
            </label>
            <label className="flex min-h-11 items-center gap-2">
              <input type="radio" value="pickup" className={radioClass} {...register('fulfillment')} />
              Recoge en la panadería
            </label>
          </div>
        </fieldset>
      ) : null}

      {fulfillment === 'delivery' ? (
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="entry-address-line"
            label="Dirección"
            className="sm:col-span-2"
            autoComplete="off"
            registration={register('address.line')}
            error={errors.address?.line?.message}
          />
          <TextField
            id="entry-address-neighborhood"
            label="Barrio"
            labelNote="(opcional)"
            autoComplete="off"
            registration={register('address.neighborhood')}
            error={errors.address?.neighborhood?.message}
          />
          <TextField
            id="entry-address-city"
            label="Ciudad"
            labelNote="(opcional)"
            autoComplete="off"
            registration={register('address.city')}
            error={errors.address?.city?.message}
          />
          <TextField
            id="entry-address-notes"
            label="Indicaciones"
            labelNote="(opcional)"
            className="sm:col-span-2"
            autoComplete="off"
            registration={register('address.notes')}
            error={errors.address?.notes?.message}
          />
          <TextField
            id="entry-address-lat"
            label="Latitud"
            labelNote="(opcional, para la ruta)"
            inputMode="decimal"
            autoComplete="off"
            registration={register('address.lat')}
            error={errors.address?.lat?.message}
          />
          <TextField
            id="entry-address-lng"
            label="Longitud"
            labelNote="(opcional, para la ruta)"
            inputMode="decimal"
            autoComplete="off"
            registration={register('address.lng')}
            error={errors.address?.lng?.message}
          />
          <div className="sm:col-span-2">
            <LocationPin
              value={typedPin}
              hint="Opcional: escribe la latitud y la longitud, o usa la ubicación de este equipo si estás en la dirección de entrega."
              onChange={(p) => {
                const opts = { shouldDirty: true, shouldValidate: formState.isSubmitted };
                setValue('address.lat', p ? String(p.lat) : '', opts);
                setValue('address.lng', p ? String(p.lng) : '', opts);
              }}
            />
          </div>
        </div>
      ) : settings.address ? (
        <p className="text-stone-700">Recoge en: {settings.address}</p>
      ) : null}

      {days.length === 0 ? (
        <p role="alert" className="text-red-800">
          La panadería no tiene días de entrega en las próximas dos semanas. Revisa los días y las fechas sin servicio
          en la configuración.
        </p>
      ) : (
        <div>
          <label htmlFor="entry-day" className="font-medium text-stone-800">
            Día
          </label>
          <select
            id="entry-day"
            {...register('dueDate', {
              onChange: () => setValue('window', hasWindows ? '' : ALL_DAY_WINDOW),
            })}
            {...fieldAria('entry-day', undefined, errors.dueDate?.message)}
            className={inputClass}
          >
            {days.map((d, i) => {
              const allLate = d.windows.every((w) => w.late || w.full);
              return (
                <option key={d.date} value={d.date}>
                  {dayLabel(d.date, i, today)}
                  {allLate ? ' · fuera del plazo o lleno' : ''}
                </option>
              );
            })}
          </select>
          <FieldMessages id="entry-day" error={errors.dueDate?.message} />
          {allDay && day.windows[0]!.late ? (
            <p role="status" className="mt-2 flex gap-2 text-sm text-amber-950">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
              Este día está dentro del plazo de pedidos ({lead} h): puedes tomarlo y quedará anotado en el historial.
            </p>
          ) : null}
        </div>
      )}

      {day && hasWindows ? (
        <fieldset aria-describedby={errors.window ? 'entry-window-error' : undefined}>
          <legend className="font-medium text-stone-800">Horario</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {day.windows.map((w) => {
              const note = windowNote(w);
              const warn = w.late || w.full;
              return (
                <label
                  key={w.id}
                  className={`flex min-h-11 cursor-pointer items-start gap-2 rounded-lg border px-3 py-2 ${windowId === w.id ? 'border-amber-800 bg-amber-50' : warn ? 'border-amber-300' : 'border-stone-300'}`}
                >
                  <input type="radio" value={w.id ?? ''} className={`${radioClass} mt-0.5`} {...register('window')} />
                  <span>
                    <span className="block text-stone-900">{w.label}</span>
                    {w.late ? (
                      <span className="block text-sm font-medium text-amber-900">Fuera del plazo de pedidos</span>
                    ) : null}
                    {note ? (
                      <span className={`block text-sm ${w.full ? 'font-medium text-red-800' : 'text-stone-600'}`}>
                        {note}
                      </span>
                    ) : null}
                  </span>
                </label>
              );
            })}
          </div>
          <FieldMessages id="entry-window" error={errors.window?.message} />
        </fieldset>
      ) : null}

      <div role="status" className="empty:hidden">
        {chosen && (chosen.late || chosen.full) ? (
          <p className="flex gap-2 rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950">
            <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>
              {chosen.late
                ? `Este horario está dentro del plazo de pedidos (${lead} h antes). `
                : `Este horario ya está lleno (${chosen.capacity ?? 0} pedidos). `}
              {chosen.late && chosen.full ? 'Además ya está lleno. ' : ''}
              Puedes crear el pedido igual: quedará anotado en su historial. Confirma con producción y domicilios.
            </span>
          </p>
        ) : null}
      </div>
    </FormSection>
  );
}

/** The methods staff may take: the bakery's cash and transfer, and credit for a B2B client. */
export function PaymentSection({ form, methods }: { form: UseFormReturn<EntryForm>; methods: OrderPaymentMethod[] }) {
  const { register, formState } = form;
  const error = formState.errors.paymentMethod?.message;
  return (
    <fieldset aria-describedby={error ? 'entry-payment-error' : undefined}>
      <legend className="font-medium text-stone-800">Medio de pago</legend>
      <div className="mt-2 flex flex-wrap gap-x-6 gap-y-2">
        {methods.map((m) => (
          <label key={m} className="flex min-h-11 items-center gap-2">
            <input type="radio" value={m} className={radioClass} {...register('paymentMethod')} />
            {PAYMENT_METHOD_ES[m]}
            {m === 'credit' ? <span className="text-stone-600">(cliente B2B)</span> : null}
          </label>
        ))}
      </div>
      <FieldMessages id="entry-payment" error={error} />
    </fieldset>
  );
}
