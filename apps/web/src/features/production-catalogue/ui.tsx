import { roundMoney } from '@hornada/domain/costing';
import { formatMoney, formatPercent } from '@hornada/domain/format';
import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import type { ScreenRead } from '../../lib/api/screen-read';
import { LoadFailed, LoadingStatus } from '../../components/load-status';

/**
 * Small pieces the ingredients and recipes screens share. Money is written as the spec says ("$4,500");
 * quantities and percents in the one es-CO format of packages/domain/src/format.ts ("0,5 kg", "55,3 %").
 */

export const sectionClass = 'rounded-2xl border border-stone-200 bg-white p-4 shadow-sm sm:p-6';

const preciseMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  minimumFractionDigits: 0,
  maximumFractionDigits: 4,
});

/** A cost shown in whole pesos (docs/design.md §4); '—' when unknown. */
export const pesos = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : formatMoney(roundMoney(value));
/** An ingredient's cost per unit, with its decimals ($12.5 a gram). */
export const unitCost = (value: number): string => preciseMoney.format(value);
export const percent = (value: number | null | undefined): string =>
  value === null || value === undefined ? '—' : formatPercent(value);

/** A back-office page of its loader's data (lib/live/use-screen-data.ts): the data, or what failed and a retry. */
export function LoadedPage<T>({
  title,
  actions,
  back,
  companyId,
  loaded,
  onRetry,
  loading,
  children,
}: {
  title: string;
  actions?: ReactNode;
  /** A link back to the list, above the content (as the kit's form pages have). */
  back?: { to: string; label: string };
  /** null while the company is not known yet: the page waits for it too. */
  companyId: string | null;
  loaded: ScreenRead<T>;
  onRetry: () => void;
  loading: string;
  children: (data: T, companyId: string) => ReactNode;
}) {
  return (
    <AreaPage title={title} actions={actions}>
      {back ? (
        <Link
          to={back.to}
          className="-mt-3 mb-4 inline-flex items-center gap-1 text-sm font-medium text-amber-900 hover:underline"
        >
          <ArrowLeft className="size-4" aria-hidden="true" />
          {back.label}
        </Link>
      ) : null}
      {!companyId ? (
        <LoadingStatus>{loading}</LoadingStatus>
      ) : loaded.state === 'failed' ? (
        <LoadFailed message={loaded.message} onRetry={onRetry} />
      ) : (
        children(loaded.data, companyId)
      )}
    </AreaPage>
  );
}
