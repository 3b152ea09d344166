import { dayInZone } from '@hornada/domain/days';
import { formatMoney } from '@hornada/domain/format';
import { parsePin, windowLabel } from '@hornada/domain/order-display';
import type { Order } from '@hornada/domain/schemas/orders';
import { useId, useState, type FormEvent } from 'react';
import { inputClass } from '../../components/auth-card';
import { ApiError } from '../../lib/api/http';
import type { ResourceService } from '../../lib/api/resource-service';
import { toastStore } from '../../lib/toast-store';
import { mainActionClass, otherActionClass } from './order-actions';
import { PIN_INVALID_ES, PinField, pinFieldText } from './order-location';
import type { ProductOption } from './order-panel-read';
import type { WindowDef } from './order-view';

const NO_PRODUCTS: ProductOption[] = [];

interface Line {
  productId: string;
  name: string;
  quantity: number;
  /** The price the order copied; a line added now is priced by the server from the catalogue. */
  unitPrice: number | null;
}

/**
 * Staff change a placed order (a customer phones to add two pandebonos or move the day): its lines,
 * day and window, address and notes, until it is in production. Only what changed is sent; the server prices
 * it, applies the day's rules and capacity, writes the history and mails the customer. A refusal is shown in
 * Spanish where the form is.
 */
export function OrderEditor({
  order,
  service,
  windows,
  timeZone,
  onSaved,
  onClose,
  products: offered,
}: {
  order: Order;
  /** What it can add (the panel's read while the editor is open); `failed` when they could not be read. */
  products: ProductOption[] | 'failed' | null;
  service: ResourceService<Order>;
  windows: readonly WindowDef[];
  timeZone: string;
  onSaved(order: Order): void;
  onClose(): void;
}) {
  const id = useId();
  const [lines, setLines] = useState<Line[]>(
    order.items.map((l) => ({ productId: l.productId, name: l.name, quantity: l.quantity, unitPrice: l.unitPrice })),
  );
  const products = Array.isArray(offered) ? offered : NO_PRODUCTS;
  const [adding, setAdding] = useState('');
  const [addQuantity, setAddQuantity] = useState('1');
  const originalDay = dayInZone(new Date(order.dueDate), timeZone);
  const [day, setDay] = useState(originalDay);
  const [slot, setSlot] = useState(order.window ?? '');
  const [line, setLine] = useState(order.address?.line ?? '');
  const [neighborhood, setNeighborhood] = useState(order.address?.neighborhood ?? '');
  const [city, setCity] = useState(order.address?.city ?? '');
  const originalPin = pinFieldText(order.address);
  const [pin, setPin] = useState(originalPin);
  const [notes, setNotes] = useState(order.notes ?? '');
  const [error, setError] = useState<string | null>(
    offered === 'failed' ? 'No pudimos cargar los productos para agregar.' : null,
  );
  const [busy, setBusy] = useState(false);

  const addable = products.filter((p) => !lines.some((l) => l.productId === p.id));
  const setQuantity = (productId: string, quantity: number) =>
    setLines((was) => was.map((l) => (l.productId === productId ? { ...l, quantity } : l)));

  function add() {
    const product = products.find((p) => p.id === adding);
    const quantity = Number(addQuantity);
    if (!product || !Number.isInteger(quantity) || quantity < 1) {
      setError('Elige un producto y una cantidad de al menos 1.');
      return;
    }
    setLines((was) => [...was, { productId: product.id, name: product.name, quantity, unitPrice: null }]);
    setAdding('');
    setAddQuantity('1');
    setError(null);
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    if (lines.length === 0) {
      setError('El pedido necesita al menos un producto. Para anularlo, cancélalo.');
      return;
    }
    if (lines.some((l) => !Number.isInteger(l.quantity) || l.quantity < 1)) {
      setError('Cada cantidad debe ser un número entero de al menos 1.');
      return;
    }
    const data: Record<string, unknown> = {};
    const items = lines.map((l) => ({
      productId: l.productId,
      quantity: l.quantity,
      notes: order.items.find((i) => i.productId === l.productId)?.notes ?? null,
    }));
    const sameItems =
      JSON.stringify(items.map((i) => [i.productId, i.quantity])) ===
      JSON.stringify(order.items.map((i) => [i.productId, i.quantity]));
    if (!sameItems) data.items = items;
    if (day !== originalDay) data.dueDate = day;
    if ((slot || null) !== order.window) data.window = slot || null;
    if (order.fulfillment === 'delivery') {
      const point = parsePin(pin);
      if (point === 'invalid') {
        setError(PIN_INVALID_ES);
        return;
      }
      const was = order.address;
      // The point kept as it was (not re-rounded) unless the field changed: another place drops it (the server's rule).
      const kept = pin.trim() === originalPin && was ? { lat: was.lat, lng: was.lng } : null;
      const address = {
        line: line.trim(),
        neighborhood: neighborhood.trim() || null,
        city: city.trim() || null,
        notes: was?.notes ?? null,
        lat: kept ? kept.lat : (point?.lat ?? null),
        lng: kept ? kept.lng : (point?.lng ?? null),
      };
      if (
        !was ||
        was.line !== address.line ||
        (was.neighborhood ?? null) !== address.neighborhood ||
        (was.city ?? null) !== address.city ||
        (was.lat ?? null) !== address.lat ||
        (was.lng ?? null) !== address.lng
      )
        data.address = address;
    }
    if ((notes.trim() || null) !== (order.notes ?? null)) data.notes = notes.trim() || null;
    if (Object.keys(data).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const next = await service.patch(order.id, data as Partial<Order>);
      onSaved(next);
      toastStore.getState().show({ type: 'success', message: `Pedido #${order.number} actualizado.` });
      onClose();
    } catch (err) {
      setError(err instanceof ApiError ? err.userMessage : 'No pudimos guardar el cambio. Intenta de nuevo.');
    } finally {
      setBusy(false);
    }
  }

  const label = 'text-sm font-medium text-stone-800';
  return (
    <form
      onSubmit={(e) => void save(e)}
      noValidate
      aria-label={`Editar el pedido #${order.number}`}
      className="space-y-4 rounded-xl border border-amber-300 bg-amber-50/60 p-3"
    >
      <fieldset className="space-y-2">
        <legend className="font-semibold text-stone-900">Productos</legend>
        <ul className="space-y-2">
          {lines.map((l) => (
            <li key={l.productId} className="flex flex-wrap items-center gap-2">
              <label htmlFor={`${id}-q-${l.productId}`} className="min-w-0 basis-full sm:basis-auto sm:flex-1">
                {l.name}
                <span className="block text-sm text-stone-600">
                  {l.unitPrice === null ? 'precio del catálogo' : `${formatMoney(l.unitPrice)} c/u`}
                </span>
              </label>
              <input
                id={`${id}-q-${l.productId}`}
                type="number"
                min={1}
                inputMode="numeric"
                className={`${inputClass} mt-0 w-20`}
                value={l.quantity}
                onChange={(e) => setQuantity(l.productId, Number(e.target.value))}
              />
              <button
                type="button"
                className={otherActionClass}
                onClick={() => setLines((was) => was.filter((x) => x.productId !== l.productId))}
                aria-label={`Quitar ${l.name}`}
              >
                Quitar
              </button>
            </li>
          ))}
        </ul>
        <div className="flex flex-wrap items-end gap-2">
          <div className="min-w-0 basis-full sm:basis-auto sm:flex-1">
            <label htmlFor={`${id}-add`} className={label}>
              Agregar producto
            </label>
            <select id={`${id}-add`} className={inputClass} value={adding} onChange={(e) => setAdding(e.target.value)}>
              <option value="">Elige un producto</option>
              {addable.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name} · {formatMoney(p.price)}
                </option>
              ))}
            </select>
          </div>
          <div>
            <label htmlFor={`${id}-add-q`} className={label}>
              Cantidad
            </label>
            <input
              id={`${id}-add-q`}
              type="number"
              min={1}
              inputMode="numeric"
              className={`${inputClass} w-20`}
              value={addQuantity}
              onChange={(e) => setAddQuantity(e.target.value)}
            />
          </div>
          <button type="button" className={otherActionClass} onClick={add}>
            Agregar
          </button>
        </div>
      </fieldset>

      <div className="grid gap-3 sm:grid-cols-2">
        <div>
          <label htmlFor={`${id}-day`} className={label}>
            Día de entrega
          </label>
          <input
            id={`${id}-day`}
            type="date"
            className={inputClass}
            value={day}
            onChange={(e) => setDay(e.target.value)}
          />
        </div>
        {windows.length ? (
          <div>
            <label htmlFor={`${id}-window`} className={label}>
              Horario
            </label>
            <select id={`${id}-window`} className={inputClass} value={slot} onChange={(e) => setSlot(e.target.value)}>
              {windows.map((w) => (
                <option key={w.id} value={w.id}>
                  {windowLabel(w.id, windows)}
                </option>
              ))}
            </select>
          </div>
        ) : null}
      </div>

      {order.fulfillment === 'delivery' ? (
        <fieldset className="space-y-2">
          <legend className="font-semibold text-stone-900">Dirección</legend>
          <label htmlFor={`${id}-line`} className={label}>
            Dirección
          </label>
          <input id={`${id}-line`} className={inputClass} value={line} onChange={(e) => setLine(e.target.value)} />
          <div className="grid gap-2 sm:grid-cols-2">
            <div>
              <label htmlFor={`${id}-hood`} className={label}>
                Barrio
              </label>
              <input
                id={`${id}-hood`}
                className={inputClass}
                value={neighborhood}
                onChange={(e) => setNeighborhood(e.target.value)}
              />
            </div>
            <div>
              <label htmlFor={`${id}-city`} className={label}>
                Ciudad
              </label>
              <input id={`${id}-city`} className={inputClass} value={city} onChange={(e) => setCity(e.target.value)} />
            </div>
          </div>
          <PinField
            value={pin}
            onChange={setPin}
            hint="Opcional: pega las coordenadas de tu app de mapas. Vacía, o si cambias la dirección, la buscamos por la dirección."
          />
        </fieldset>
      ) : null}

      <div>
        <label htmlFor={`${id}-notes`} className={label}>
          Notas
        </label>
        <textarea
          id={`${id}-notes`}
          rows={2}
          maxLength={1000}
          className={inputClass}
          value={notes}
          onChange={(e) => setNotes(e.target.value)}
        />
      </div>

      {error ? (
        <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
          {error}
        </p>
      ) : null}
      <p className="text-sm text-stone-700">
        El total lo calcula la panadería al guardar; le avisamos al cliente por correo.
      </p>
      <div className="flex flex-wrap gap-2">
        <button type="submit" className={mainActionClass} disabled={busy}>
          {busy ? 'Guardando…' : 'Guardar cambios'}
        </button>
        <button type="button" className={otherActionClass} onClick={onClose} disabled={busy}>
          Descartar
        </button>
      </div>
    </form>
  );
}
