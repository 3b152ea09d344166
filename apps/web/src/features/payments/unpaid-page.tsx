import { formatMoney } from '@hornada/domain/format';
import { IDEMPOTENCY_HEADER } from '@hornada/domain/schemas/orders';
import { PAYMENT_METHOD_ES, PAYMENT_STATUS_ES } from '@hornada/domain/order-status';
import { AGING_BUCKETS, type UnpaidParty } from '@hornada/domain/receivables';
import type { OrderPaymentMethod, PaymentStatus } from '@hornada/domain/schemas/orders';
import { ChevronDown, ChevronRight, Printer } from 'lucide-react';
import { useMemo, useState } from 'react';
import { AreaPage } from '../../components/area-page';
import { useCompanyId } from '../../components/data-table/resource-client';
import { EmptyState } from '../../components/empty-state';
import { LoadFailed } from '../../components/load-status';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { ConfirmDialog } from '../../components/ui/confirm-dialog';
import { http } from '../../lib/api/http';
import { endpoints } from '../../lib/api/endpoints';
import { failureText } from '../../lib/api/failure-text';
import { readForScreen } from '../../lib/api/screen-read';
import { useScreenData } from '../../lib/live/use-screen-data';
import { useMarketName } from '../../lib/use-market-name';
import { randomKey } from '../../lib/random-key';
import { toastStore } from '../../lib/toast-store';
import { AccountStatement } from './account-statement';
import { BUCKET_ES, HeadCells, HeadRow, PARTY_TYPE_ES, dayEs, ageEs } from './unpaid-view';
import { companyPath } from '../../lib/api/paths';

const partyKey = (p: UnpaidParty) => `${p.party.type}:${p.party.id}`;

/** Staff mark cash, transfer and credit orders paid; an online one only the gateway does. */
const markable = (o: UnpaidParty['unpaidOrders'][number]) => o.paymentMethod !== 'online';

/** What a failed request tells a person. */
const failure = failureText;

/** The open balances by party (GET …/reports/unpaid). */
export const loader = ({ request }: { request: Request }) =>
  readForScreen((companyId) => endpoints.unpaid(companyId, request.signal));

/**
 * The open balances and the bakery's name. Live (docs/design.md §3): an order paid, cancelled, placed or changed
 * elsewhere (staff, a driver, the gateway) reads the balances again, once per burst of changes; after a payment
 * here they are read again at once.
 */
function useUnpaid(companyId: string | null) {
  const { data: load, reload } = useScreenData(loader, companyId, ['orders']);
  return { load, marketName: useMarketName(), reload };
}

/**
 * Dashboard › Pagos pendientes (docs/design.md §6 orders/unpaid): open balances by B2B client, customer
 * or guest with their ages, the credit a client uses, each party's orders on demand, several of them
 * marked paid at once (the server does it in one transaction), and a printable statement for one party.
 */
export function Component() {
  const companyId = useCompanyId();
  const { load, marketName, reload } = useUnpaid(companyId);
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [confirming, setConfirming] = useState(false);
  // One Idempotency-Key per submit: a second press or a retry after a lost answer marks nothing twice.
  const [submitKey, setSubmitKey] = useState(randomKey);
  const [statement, setStatement] = useState<UnpaidParty | null>(null);

  const parties = useMemo(() => (load.state === 'ready' ? load.data : []), [load]);
  const owed = useMemo(() => new Map(parties.flatMap((p) => p.unpaidOrders.map((o) => [o.id, o] as const))), [parties]);
  // Orders paid elsewhere meanwhile leave the selection when the report comes back without them.
  const chosen = [...selected].filter((id) => owed.has(id));
  const chosenTotal = chosen.reduce((sum, id) => sum + (owed.get(id)?.total ?? 0), 0);

  const toggle = <T,>(set: ReadonlySet<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const markPaid = async () => {
    if (!companyId) return;
    try {
      await http.post(
        companyPath(companyId, 'orders', 'mark-paid'),
        { orderIds: chosen },
        { headers: { [IDEMPOTENCY_HEADER]: submitKey } },
      );
      const n = chosen.length;
      toastStore.getState().show({
        type: 'success',
        message: n === 1 ? '1 pedido marcado como pagado.' : `${n} pedidos marcados como pagados.`,
      });
      setSelected(new Set());
    } catch (err) {
      toastStore
        .getState()
        .show({ type: 'error', title: 'No se marcaron los pagos', message: failure(err), duration: 6000 });
      throw err;
    } finally {
      reload();
    }
  };

  const actions = (
    <div className="flex flex-wrap items-center gap-3">
      <p className="text-sm text-stone-700" aria-live="polite">
        {chosen.length > 0
          ? `${chosen.length} ${chosen.length === 1 ? 'pedido seleccionado' : 'pedidos seleccionados'} · ${formatMoney(chosenTotal)}`
          : 'Selecciona pedidos para marcarlos como pagados.'}
      </p>
      <button
        type="button"
        className={buttonClass}
        disabled={chosen.length === 0}
        onClick={() => {
          setSubmitKey(randomKey());
          setConfirming(true);
        }}
      >
        Marcar como pagado
      </button>
    </div>
  );

  return (
    <AreaPage title="Pagos pendientes" actions={parties.length > 0 ? actions : undefined}>
      {load.state === 'failed' ? <LoadFailed message={load.message} onRetry={reload} /> : null}
      {load.state === 'ready' && parties.length === 0 ? (
        <EmptyState title="Nadie te debe nada.">
          <p>Todos los pedidos entregados o por entregar están pagados. Aquí verás los saldos cuando haya alguno.</p>
        </EmptyState>
      ) : null}
      {parties.length > 0 ? (
        // relative: the tables' screen-reader captions (absolute) stay inside the scroller on a phone.
        <div className="relative overflow-x-auto rounded-xl border border-stone-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Saldos pendientes por cliente, con su antigüedad</caption>
            <thead className="bg-stone-50 text-xs uppercase tracking-wide text-stone-600">
              <HeadRow
                cellClass="px-3 py-2"
                cells={[
                  'Cliente',
                  { label: 'Pedidos', end: true },
                  { label: 'Saldo', end: true },
                  ...AGING_BUCKETS.map((b) => ({ label: BUCKET_ES[b], end: true })),
                  { label: 'Cupo usado', end: true },
                  { label: 'Acciones', sr: true },
                ]}
              />
            </thead>
            <tbody>
              {parties.map((p) => {
                const key = partyKey(p);
                const expanded = open.has(key);
                // An online order is the gateway's to mark paid (the server refuses the whole batch otherwise).
                const ids = p.unpaidOrders.filter(markable).map((o) => o.id);
                const all = ids.length > 0 && ids.every((id) => selected.has(id));
                return (
                  <PartyRows
                    key={key}
                    party={p}
                    expanded={expanded}
                    onExpand={(on) => setOpen((s) => toggle(s, key, on))}
                    allSelected={all}
                    onSelectAll={(on) =>
                      setSelected((s) => {
                        const next = new Set(s);
                        for (const id of ids) {
                          if (on) next.add(id);
                          else next.delete(id);
                        }
                        return next;
                      })
                    }
                    selected={selected}
                    onSelect={(id, on) => setSelected((s) => toggle(s, id, on))}
                    onStatement={() => setStatement(p)}
                  />
                );
              })}
            </tbody>
          </table>
        </div>
      ) : null}
      <ConfirmDialog
        open={confirming}
        onOpenChange={setConfirming}
        title="¿Marcar como pagados?"
        description={`${chosen.length} ${chosen.length === 1 ? 'pedido' : 'pedidos'} por ${formatMoney(chosenTotal)} quedarán como pagados. Cada pedido guarda en su historial quién lo marcó.`}
        confirmLabel="Marcar como pagado"
        destructive={false}
        onConfirm={markPaid}
      />
      {statement ? (
        <AccountStatement party={statement} marketName={marketName} onClose={() => setStatement(null)} />
      ) : null}
    </AreaPage>
  );
}

interface PartyRowsProps {
  party: UnpaidParty;
  expanded: boolean;
  onExpand(on: boolean): void;
  allSelected: boolean;
  onSelectAll(on: boolean): void;
  selected: ReadonlySet<string>;
  onSelect(id: string, on: boolean): void;
  onStatement(): void;
}

/** A party's line and, expanded, its orders with a checkbox each. */
function PartyRows({
  party: p,
  expanded,
  onExpand,
  allSelected,
  onSelectAll,
  selected,
  onSelect,
  onStatement,
}: PartyRowsProps) {
  const ordersId = `orders-${p.party.type}-${p.party.id}`;
  const Chevron = expanded ? ChevronDown : ChevronRight;
  return (
    <>
      <tr className="border-t border-stone-200 align-top">
        <td className="px-3 py-2">
          <button
            type="button"
            className="flex items-start gap-1 text-left font-semibold text-stone-900 hover:underline"
            aria-expanded={expanded}
            aria-controls={ordersId}
            onClick={() => onExpand(!expanded)}
          >
            <Chevron className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            {p.party.name}
          </button>
          <span className="ml-5 block text-xs text-stone-600">
            {PARTY_TYPE_ES[p.party.type]}
            {p.party.phone ? ` · ${p.party.phone}` : ''}
            {p.paymentTermsDays ? ` · crédito a ${p.paymentTermsDays} días` : ''}
          </span>
        </td>
        <td className="px-3 py-2 text-right tabular-nums">{p.orders}</td>
        <td className="px-3 py-2 text-right font-semibold tabular-nums">{formatMoney(p.balance)}</td>
        {AGING_BUCKETS.map((b) => (
          <td
            key={b}
            className={`px-3 py-2 text-right tabular-nums ${p.buckets[b] > 0 && b !== '0-30' ? 'text-red-800' : ''}`}
          >
            {p.buckets[b] > 0 ? formatMoney(p.buckets[b]) : '—'}
          </td>
        ))}
        <td className="px-3 py-2 text-right tabular-nums">
          {p.creditLimit ? (
            <span className={p.creditUsed! > p.creditLimit ? 'font-semibold text-red-800' : ''}>
              {formatMoney(p.creditUsed ?? 0)} de {formatMoney(p.creditLimit)}
            </span>
          ) : p.creditLimit === 0 ? (
            'Sin cupo'
          ) : (
            '—'
          )}
        </td>
        <td className="px-3 py-2 text-right">
          <button type="button" className={secondaryButtonClass} onClick={onStatement}>
            <Printer className="size-4" aria-hidden="true" />
            Estado de cuenta
          </button>
        </td>
      </tr>
      {expanded ? (
        <tr id={ordersId} className="bg-stone-50/70">
          <td colSpan={9} className="px-3 pb-3">
            <table className="w-full text-sm">
              <caption className="sr-only">Pedidos sin pagar de {p.party.name}</caption>
              <thead className="text-xs text-stone-600">
                <tr>
                  <th scope="col" className="w-10 py-2">
                    <input
                      type="checkbox"
                      className="size-4 accent-amber-900"
                      aria-label={`Seleccionar todos los pedidos de ${p.party.name}`}
                      checked={allSelected}
                      disabled={!p.unpaidOrders.some(markable)}
                      onChange={(e) => onSelectAll(e.target.checked)}
                    />
                  </th>
                  <HeadCells
                    cellClass="py-2"
                    cells={['Pedido', 'Entrega', 'Antigüedad', 'Pago', { label: 'Total', end: true }]}
                  />
                </tr>
              </thead>
              <tbody>
                {p.unpaidOrders.map((o) => (
                  <tr key={o.id} className="border-t border-stone-200">
                    <td className="py-2">
                      <input
                        type="checkbox"
                        className="size-4 accent-amber-900"
                        aria-label={`Seleccionar pedido #${o.number}`}
                        checked={selected.has(o.id)}
                        disabled={!markable(o)}
                        title={markable(o) ? undefined : 'Lo marca pagado la pasarela de pago'}
                        onChange={(e) => onSelect(o.id, e.target.checked)}
                      />
                    </td>
                    <td className="py-2 font-medium">#{o.number}</td>
                    <td className="py-2">{dayEs(o.dueDate)}</td>
                    <td className="py-2">{ageEs(o.ageDays)}</td>
                    <td className="py-2">
                      {PAYMENT_METHOD_ES[o.paymentMethod as OrderPaymentMethod] ?? o.paymentMethod} ·{' '}
                      {PAYMENT_STATUS_ES[o.paymentStatus as PaymentStatus] ?? o.paymentStatus}
                    </td>
                    <td className="py-2 text-right tabular-nums">{formatMoney(o.total)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </td>
        </tr>
      ) : null}
    </>
  );
}
