import { addDays, weekdayOf } from '@hornada/domain/order-days';
import ChevronLeft from 'lucide-react/icons/chevron-left';
import ChevronRight from 'lucide-react/icons/chevron-right';
import X from 'lucide-react/icons/x';
import { useId, useState, type MouseEvent } from 'react';
import { iconButtonClass } from '../../components/ui/button';

const dayLabel = new Intl.DateTimeFormat('es-CO', {
  weekday: 'long',
  day: 'numeric',
  month: 'long',
  year: 'numeric',
  timeZone: 'UTC',
});
const monthLabel = new Intl.DateTimeFormat('es-CO', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const asDate = (day: string) => new Date(`${day}T00:00:00Z`);
/** "jueves, 3 de diciembre de 2026" for `2026-12-03` (a calendar day: no time zone shifts it). */
export const longDay = (day: string) => dayLabel.format(asDate(day));

const HEADS = ['L', 'M', 'X', 'J', 'V', 'S', 'D'];
const HEAD_NAMES = ['lunes', 'martes', 'miércoles', 'jueves', 'viernes', 'sábado', 'domingo'];

/** The first day of the month `offset` months after `day`'s month. */
function monthStart(day: string, offset: number): string {
  const [y, m] = day.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + offset;
  return `${Math.floor(index / 12)}-${String((index % 12) + 1).padStart(2, '0')}-01`;
}

/**
 * A pointer press on the month buttons leaves the focus where it is. Otherwise it blurs the field being typed
 * in (a window's time), whose validation shows or hides a message above the calendar: the page moves between
 * the press and the release, the release lands off the button, and the first click is lost.
 */
const keepFocus = (e: MouseEvent) => e.preventDefault();

/**
 * Days the bakery does not deliver (holidays, a closed week), on a month calendar: a day is a toggle button
 * (aria-pressed) and the chosen ones are listed below with a way to take each out. Past days are not offered.
 */
export function BlackoutCalendar({
  value,
  onChange,
  today,
  disabled,
}: {
  value: readonly string[];
  onChange(next: string[]): void;
  /** The bakery's today (its time zone), `YYYY-MM-DD`. */
  today: string;
  disabled?: boolean;
}) {
  const id = useId();
  const [offset, setOffset] = useState(0);
  const first = monthStart(today, offset);
  const lead = (weekdayOf(first) + 6) % 7; // Monday first
  const days: string[] = [];
  for (let d = first; d.slice(0, 7) === first.slice(0, 7); d = addDays(d, 1)) days.push(d);
  const chosen = new Set(value);
  const toggle = (day: string) => onChange(chosen.has(day) ? value.filter((d) => d !== day) : [...value, day].sort());
  const upcoming = [...value].sort();

  return (
    <div className="space-y-3">
      <div className="max-w-sm rounded-xl border border-stone-200 p-3">
        <div className="flex items-center justify-between">
          <button
            type="button"
            className={iconButtonClass}
            aria-label="Mes anterior"
            disabled={offset === 0}
            onMouseDown={keepFocus}
            onClick={() => setOffset((n) => n - 1)}
          >
            <ChevronLeft className="size-5" aria-hidden="true" />
          </button>
          <p id={`${id}-month`} className="font-semibold first-letter:uppercase" aria-live="polite">
            {monthLabel.format(asDate(first))}
          </p>
          <button
            type="button"
            className={iconButtonClass}
            aria-label="Mes siguiente"
            disabled={offset >= 12}
            onMouseDown={keepFocus}
            onClick={() => setOffset((n) => n + 1)}
          >
            <ChevronRight className="size-5" aria-hidden="true" />
          </button>
        </div>
        <div role="group" aria-labelledby={`${id}-month`} className="mt-2 grid grid-cols-7 gap-1 text-center">
          {HEADS.map((h, i) => (
            <abbr key={h} title={HEAD_NAMES[i]} className="text-xs font-semibold text-stone-600 no-underline">
              {h}
            </abbr>
          ))}
          {Array.from({ length: lead }, (_, i) => (
            <span key={`lead-${i}`} aria-hidden="true" />
          ))}
          {days.map((day) => {
            const on = chosen.has(day);
            const past = day < today;
            return (
              <button
                key={day}
                type="button"
                aria-pressed={on}
                aria-label={longDay(day)}
                disabled={disabled || past}
                onClick={() => toggle(day)}
                className={`flex h-10 items-center justify-center rounded-lg text-sm tabular-nums focus-visible:outline-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed ${
                  on
                    ? 'bg-red-700 font-semibold text-white'
                    : past
                      ? 'text-stone-400'
                      : 'text-stone-800 hover:bg-amber-100'
                } ${day === today ? 'ring-1 ring-amber-800' : ''}`}
              >
                {Number(day.slice(8))}
              </button>
            );
          })}
        </div>
      </div>
      {upcoming.length ? (
        <ul aria-label="Días sin entregas" className="flex flex-wrap gap-2">
          {upcoming.map((day) => (
            <li
              key={day}
              className="inline-flex items-center gap-1 rounded-full border border-red-200 bg-red-50 py-1 pl-3 pr-1 text-sm text-red-900"
            >
              <span className={day < today ? 'line-through' : ''}>{longDay(day)}</span>
              {disabled ? null : (
                <button
                  type="button"
                  className="inline-flex size-7 items-center justify-center rounded-full hover:bg-red-100 focus-visible:outline-2 focus-visible:outline-red-700"
                  aria-label={`Quitar ${longDay(day)}`}
                  onClick={() => onChange(value.filter((d) => d !== day))}
                >
                  <X className="size-4" aria-hidden="true" />
                </button>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <p className="text-sm text-stone-600">Ningún día cerrado: se entrega todos los días de entrega.</p>
      )}
    </div>
  );
}
