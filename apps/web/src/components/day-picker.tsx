import { useSearchParams } from 'react-router';
import { buttonClass, secondaryButtonClass } from './ui/button';

/** The day in Bogotá (the bakery's zone), `offset` days from now. */
export function dayFromNow(offset: number, now = new Date(), timeZone = 'America/Bogota'): string {
  const parts = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
    .format(now)
    .split('-')
    .map(Number);
  const d = new Date(Date.UTC(parts[0]!, parts[1]! - 1, parts[2]! + offset));
  return d.toISOString().slice(0, 10);
}

/** A day as the sheet prints it: "martes, 24 de noviembre de 2026". */
export function dayLong(day: string): string {
  return new Intl.DateTimeFormat('es-CO', { dateStyle: 'full', timeZone: 'UTC' }).format(new Date(`${day}T12:00:00Z`));
}

/** The day an address names (`?date=`), today by default: what a screen's loader and the screen both read. */
export function dayOfParams(params: URLSearchParams): string {
  const asked = params.get('date');
  return asked && /^\d{4}-\d{2}-\d{2}$/.test(asked) ? asked : dayFromNow(0);
}

/** The day of the page, kept in the address (`?date=`), today by default. */
export function useDayParam(): [string, (day: string) => void] {
  const [params, setParams] = useSearchParams();
  return [dayOfParams(params), (next) => setParams({ date: next }, { replace: true })];
}

/** Today, tomorrow or any date. */
export function DayPicker({
  day,
  onChange,
  large = false,
}: {
  day: string;
  onChange(day: string): void;
  large?: boolean;
}) {
  const today = dayFromNow(0);
  const tomorrow = dayFromNow(1);
  const size = large ? 'min-h-14 px-6 text-lg' : '';
  const choice = (value: string, label: string) => (
    <button
      type="button"
      aria-pressed={day === value}
      className={`${day === value ? buttonClass : secondaryButtonClass} ${size}`}
      onClick={() => onChange(value)}
    >
      {label}
    </button>
  );
  return (
    <div className="flex flex-wrap items-center gap-2 print:hidden">
      {choice(today, 'Hoy')}
      {choice(tomorrow, 'Mañana')}
      <label className={`flex items-center gap-2 text-stone-700 ${large ? 'text-lg' : 'text-sm'}`}>
        Fecha
        <input
          type="date"
          value={day}
          onChange={(e) => e.target.value && onChange(e.target.value)}
          className={`rounded-lg border border-stone-300 bg-white px-3 py-2 ${large ? 'min-h-14 text-lg' : ''}`}
        />
      </label>
    </div>
  );
}
