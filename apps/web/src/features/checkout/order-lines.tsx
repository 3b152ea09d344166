import { formatMoney } from '@hornada/domain/format';

interface Line {
  productId: string;
  name: string | null;
  quantity: number;
  lineTotal: number;
  available?: boolean;
}

/** The lines of a cart or an order, and its totals as the server computed them. */
export function OrderLines(props: { lines: readonly Line[]; subtotal: number; deliveryFee: number; total: number }) {
  return (
    <div className="rounded-xl border border-stone-200 bg-white">
      <ul aria-label="Tu pedido" className="divide-y divide-stone-200">
        {props.lines.map((line) => (
          <li key={line.productId} className="flex justify-between gap-3 p-3">
            <span>
              {line.quantity} × {line.name ?? 'Producto'}
              {line.available === false ? (
                <span className="ml-2 text-sm text-amber-900">(ya no está disponible)</span>
              ) : null}
            </span>
            <span className="tabular-nums">{line.available === false ? '' : formatMoney(line.lineTotal)}</span>
          </li>
        ))}
      </ul>
      <dl className="space-y-1 border-t border-stone-200 p-3">
        <div className="flex justify-between">
          <dt>Subtotal</dt>
          <dd className="tabular-nums">{formatMoney(props.subtotal)}</dd>
        </div>
        <div className="flex justify-between">
          <dt>Domicilio</dt>
          <dd className="tabular-nums">{props.deliveryFee === 0 ? 'Gratis' : formatMoney(props.deliveryFee)}</dd>
        </div>
        <div className="flex justify-between text-lg font-bold">
          <dt>Total</dt>
          <dd className="total tabular-nums">{formatMoney(props.total)}</dd>
        </div>
      </dl>
    </div>
  );
}
