import { useSearchParams } from 'react-router';
import { dayFromNow } from './day-picker';

/** The day an address names: tomorrow with `?dia=manana`, else today (a screen's loader reads it too). */
export function todayOrTomorrowOf(params: URLSearchParams): string {
  return dayFromNow(params.get('dia') === 'manana' ? 1 : 0);
}

/**
 * Today or tomorrow, kept in the address (`?dia=manana`): the kitchen tablet and the driver's phone look
 * ahead too (a bakery with no preparation lead bakes tomorrow's orders tonight).
 */
export function useTodayOrTomorrow(): { tomorrow: boolean; date: string; choose(tomorrow: boolean): void } {
  const [params, setParams] = useSearchParams();
  const tomorrow = params.get('dia') === 'manana';
  return {
    tomorrow,
    date: todayOrTomorrowOf(params),
    choose: (next) => setParams(next ? { dia: 'manana' } : {}, { replace: true }),
  };
}

/** Two large buttons, "Hoy" and "Mañana", the chosen one pressed. */
export function TodayTomorrow({ tomorrow, onChoose }: { tomorrow: boolean; onChoose(tomorrow: boolean): void }) {
  return (
    <div role="group" aria-label="Día" className="mb-5 inline-flex rounded-2xl bg-stone-200 p-1">
      {[
        { label: 'Hoy', on: !tomorrow, pick: false },
        { label: 'Mañana', on: tomorrow, pick: true },
      ].map(({ label, on, pick }) => (
        <button
          key={label}
          type="button"
          aria-pressed={on}
          onClick={() => onChoose(pick)}
          className={`min-h-12 min-w-28 rounded-xl px-5 text-lg font-semibold focus-visible:outline-4 focus-visible:outline-amber-900 ${
            on ? 'bg-white text-amber-950 shadow' : 'text-stone-700 hover:bg-white/60'
          }`}
        >
          {label}
        </button>
      ))}
    </div>
  );
}
