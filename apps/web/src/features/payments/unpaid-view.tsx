import type { AgingBucket, UnpaidParty } from '@hornada/domain/receivables';

/** The age columns' headings. */
export const BUCKET_ES: Record<AgingBucket, string> = {
  '0-30': '0–30 días',
  '31-60': '31–60 días',
  '61-90': '61–90 días',
  '90+': 'Más de 90',
};

export const PARTY_TYPE_ES: Record<UnpaidParty['party']['type'], string> = {
  b2bClient: 'Cliente empresarial',
  customer: 'Cliente con cuenta',
  guest: 'Cliente sin cuenta',
};

/** A `YYYY-MM-DD` day as Colombia writes it (25/11/2026), without a time zone to shift it. */
export function dayEs(day: string): string {
  const [y, m, d] = day.split('-');
  return `${d}/${m}/${y}`;
}

/** An order's age past its due day (and terms) in words. */
export function ageEs(ageDays: number): string {
  if (ageDays < 0) return `Vence en ${-ageDays} ${-ageDays === 1 ? 'día' : 'días'}`;
  if (ageDays === 0) return 'Vence hoy';
  return `${ageDays} ${ageDays === 1 ? 'día' : 'días'} vencido`;
}
type HeadCell = string | { label: string; end?: boolean; sr?: boolean };

/** Column headings (`end` ones right-aligned: amounts), without their row. */
export function HeadCells({ cells, cellClass }: { cells: readonly HeadCell[]; cellClass: string }) {
  return (
    <>
      {cells.map((c) => {
        const cell = typeof c === 'string' ? { label: c } : c;
        return (
          <th key={cell.label} scope="col" className={`${cellClass} ${cell.end ? 'text-right' : 'text-left'}`}>
            {cell.sr ? <span className="sr-only">{cell.label}</span> : cell.label}
          </th>
        );
      })}
    </>
  );
}

/** A header row of column headings. */
export function HeadRow(props: { cells: readonly HeadCell[]; cellClass: string }) {
  return (
    <tr>
      <HeadCells {...props} />
    </tr>
  );
}
