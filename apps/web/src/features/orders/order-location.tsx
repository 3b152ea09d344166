import { ROUTABLE_STATUSES } from '@hornada/domain/delivery';
import { locationText, parsePin, pinText } from '@hornada/domain/order-display';
import type { Order } from '@hornada/domain/schemas/orders';
import { useId, useState, type FormEvent } from 'react';
import { inputClass } from '../../components/auth-card';
import { ApiError } from '../../lib/api/http';
import type { ResourceService } from '../../lib/api/resource-service';
import { toastStore } from '../../lib/toast-store';
import { mainActionClass, otherActionClass } from './order-actions';

/** The error of a pin that is not a point on the map (the editor and the pin form say the same). */
export const PIN_INVALID_ES =
  'Escribe la ubicación como latitud, longitud (por ejemplo 4.627800, -74.071200), como la copia tu app de mapas.';

/** The pin's field text of an order: its point as people read it, or empty. */
export function pinFieldText(address: Order['address']): string {
  return address && address.lat !== null && address.lng !== null ? pinText({ lat: address.lat, lng: address.lng }) : '';
}

/** The pin's field: coordinates as a map app copies them ("4.627800, -74.071200"), with its hint. */
export function PinField({
  value,
  onChange,
  hint,
  invalid = false,
}: {
  value: string;
  onChange(value: string): void;
  hint: string;
  invalid?: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={`${id}-pin`} className="text-sm font-medium text-stone-800">
        Ubicación en el mapa (latitud, longitud)
      </label>
      <input
        id={`${id}-pin`}
        className={inputClass}
        inputMode="decimal"
        autoComplete="off"
        placeholder="4.627800, -74.071200"
        aria-describedby={`${id}-pin-hint`}
        aria-invalid={invalid || undefined}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      />
      <p id={`${id}-pin-hint`} className="mt-1 text-sm text-stone-700">
        {hint}
      </p>
    </div>
  );
}

/**
 * Where a delivery's stop is on the map: «Ubicada por dirección» (the geocoder found it), «Ubicación
 * fijada a mano», or none, and for the office, a pin to fix it while the stop is still ahead (also after the
 * order is in production, when its other details no longer change): "Ordenar ruta" puts stops without one last.
 */
export function OrderLocation({
  order,
  service,
  canPin,
  onSaved,
}: {
  order: Order;
  service: ResourceService<Order> | null;
  canPin: boolean;
  onSaved(order: Order): void;
}) {
  const [open, setOpen] = useState(false);
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const address = order.address;
  if (!address) return null;
  const pinnable = canPin && !!service && (ROUTABLE_STATUSES as readonly string[]).includes(order.status);
  const placed = address.lat !== null && address.lng !== null;

  async function save(point: { lat: number; lng: number } | null) {
    if (!service || !address) return;
    setBusy(true);
    setError(null);
    try {
      const next = await service.patch(order.id, {
        address: { ...address, lat: point?.lat ?? null, lng: point?.lng ?? null },
      } as Partial<Order>);
      onSaved(next);
      toastStore.getState().show({
        type: 'success',
        message: point
          ? `Ubicación del pedido #${order.number} guardada.`
          : `Quitamos la ubicación del pedido #${order.number}: la buscaremos por la dirección.`,
      });
      setOpen(false);
    } catch (err) {
      setError(err instanceof ApiError ? err.userMessage : 'No pudimos guardar la ubicación. Intenta de nuevo.');
    } finally {
      setBusy(false);
    }
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const point = parsePin(text);
    if (point === 'invalid' || point === null) {
      setError(PIN_INVALID_ES);
      return;
    }
    void save(point);
  }

  return (
    <div className="mt-2 space-y-2">
      <p className={placed ? 'text-sm text-stone-700' : 'text-sm font-medium text-amber-900'}>
        {locationText(order)}
        {placed ? <span className="block tabular-nums text-stone-600">{pinFieldText(address)}</span> : null}
      </p>
      {pinnable && !open ? (
        <button
          type="button"
          className={otherActionClass}
          onClick={() => {
            setText(pinFieldText(address));
            setError(null);
            setOpen(true);
          }}
        >
          {placed ? 'Cambiar ubicación' : 'Fijar ubicación'}
        </button>
      ) : null}
      {pinnable && open ? (
        <form
          onSubmit={submit}
          noValidate
          aria-label={`Ubicación del pedido #${order.number}`}
          className="space-y-2 rounded-xl border border-amber-300 bg-amber-50/60 p-3"
        >
          <PinField
            value={text}
            onChange={setText}
            invalid={!!error}
            hint="Búscala en tu app de mapas, copia sus coordenadas y pégalas aquí."
          />
          {error ? (
            <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
              {error}
            </p>
          ) : null}
          <div className="flex flex-wrap gap-2">
            <button type="submit" className={mainActionClass} disabled={busy}>
              {busy ? 'Guardando…' : 'Guardar ubicación'}
            </button>
            {order.geoSource === 'pinned' ? (
              <button type="button" className={otherActionClass} disabled={busy} onClick={() => void save(null)}>
                Quitar ubicación
              </button>
            ) : null}
            <button type="button" className={otherActionClass} disabled={busy} onClick={() => setOpen(false)}>
              Cancelar
            </button>
          </div>
        </form>
      ) : null}
    </div>
  );
}
