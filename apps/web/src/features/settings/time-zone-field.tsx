import { DEFAULT_TIME_ZONE } from '@hornada/domain/constants';
import ChevronDown from 'lucide-react/icons/chevron-down';
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { inputClass } from '../../components/auth-card';
import { FieldLabel, FieldMessages, fieldAria } from '../../components/forms/fields';

/** Every zone the browser knows (about 400), or Colombia's alone where it cannot list them. */
export const TIME_ZONES: readonly string[] = (() => {
  try {
    return Intl.supportedValuesOf('timeZone');
  } catch {
    return [DEFAULT_TIME_ZONE];
  }
})();

/** The cities a bakery of the region is likely to pick, in Spanish; the rest keep their IANA city name. */
const CITY_ES: Record<string, string> = {
  'America/Bogota': 'Bogotá',
  'America/Mexico_City': 'Ciudad de México',
  'America/New_York': 'Nueva York',
  'America/Los_Angeles': 'Los Ángeles',
  'America/Sao_Paulo': 'São Paulo',
  'America/Panama': 'Panamá',
  'America/Lima': 'Lima',
  'America/Guayaquil': 'Guayaquil',
  'America/Caracas': 'Caracas',
  'America/Santiago': 'Santiago de Chile',
  'America/Argentina/Buenos_Aires': 'Buenos Aires',
  'America/Havana': 'La Habana',
  'America/Costa_Rica': 'Costa Rica',
  'America/El_Salvador': 'El Salvador',
  'America/Santo_Domingo': 'Santo Domingo',
  'America/Puerto_Rico': 'Puerto Rico',
  'Europe/Madrid': 'Madrid',
  'Europe/London': 'Londres',
  'Atlantic/Canary': 'Canarias',
  UTC: 'UTC',
};

/** IANA's areas in Spanish (the name itself stays searchable). */
const REGION_ES: Record<string, string> = {
  America: 'América',
  Europe: 'Europa',
  Africa: 'África',
  Asia: 'Asia',
  Atlantic: 'Atlántico',
  Pacific: 'Pacífico',
  Indian: 'Índico',
  Australia: 'Australia',
  Antarctica: 'Antártida',
  Arctic: 'Ártico',
};

export interface ZoneOption {
  zone: string;
  /** "Bogotá (UTC−5)". */
  label: string;
  /** The region the city is in ("América"; Colombia for Bogotá), shown beside the label. */
  region: string;
  /** Lower-case, without accents: what a search is compared with. */
  search: string;
}

const fold = (text: string) =>
  text
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/** "UTC−5", "UTC+5:30", "UTC" for the zone's offset now (a minus sign, not a hyphen, as people write it). */
export function utcOffset(zone: string, at = new Date()): string {
  try {
    const name = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'shortOffset' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const offset = name?.replace(/^GMT/, '') ?? '';
    // Some engines say "GMT+0" for no offset, others "GMT".
    return offset && !/^[+-]0$/.test(offset) ? `UTC${offset.replace('-', '−')}` : 'UTC';
  } catch {
    return 'UTC';
  }
}

export function zoneOption(zone: string, at = new Date()): ZoneOption {
  const parts = zone.split('/');
  const city = CITY_ES[zone] ?? (parts.at(-1) ?? zone).replace(/_/g, ' ');
  const area = parts.length > 1 ? parts[0]! : '';
  const region = zone === DEFAULT_TIME_ZONE ? 'Colombia' : (REGION_ES[area] ?? area);
  const label = `${city} (${utcOffset(zone, at)})`;
  return { zone, label, region, search: fold(`${label} ${region} ${zone.replace(/_/g, ' ')}`) };
}

/** Colombia's zone first, then the others by their IANA name (the list a bakery scrolls when not searching). */
export function zoneOptions(zones: readonly string[] = TIME_ZONES, at = new Date()): ZoneOption[] {
  const rest = zones.filter((z) => z !== DEFAULT_TIME_ZONE);
  return [DEFAULT_TIME_ZONE, ...rest].map((z) => zoneOption(z, at));
}

/** The options whose label or IANA name holds every word typed, accents and case aside. */
export function filterZones(options: readonly ZoneOption[], query: string): ZoneOption[] {
  const words = fold(query).split(/\s+/).filter(Boolean);
  if (words.length === 0) return [...options];
  return options.filter((o) => words.every((w) => o.search.includes(w)));
}

let everyZone: ZoneOption[] | null = null;
/** Built when a list first opens: 400 offsets are not worth computing for a screen that never opens it. */
const allZones = () => (everyZone ??= zoneOptions());

/** How many options the list renders at once: a search narrows it, scrolling 400 buttons on a phone helps no one. */
const SHOWN = 60;

/**
 * The bakery's time zone: a combobox (ARIA 1.2 pattern) with type-ahead over every zone, Colombia's first,
 * each said as "Bogotá (UTC−5)". Arrows move, Enter chooses, Escape closes and puts the chosen one back;
 * on a phone, tapping an option chooses it.
 */
export function TimeZoneField({
  id,
  value,
  onChange,
  onBlur,
  error,
  disabled,
  className,
}: {
  id: string;
  value: string;
  onChange(zone: string): void;
  onBlur?(): void;
  error?: string | undefined;
  disabled?: boolean;
  className?: string;
}) {
  const listId = useId();
  const hint = 'Escribe una ciudad para buscarla (por ejemplo, Lima o Madrid).';
  const current = useMemo(() => zoneOption(value || DEFAULT_TIME_ZONE), [value]);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState<string | null>(null);
  const [active, setActive] = useState(0);
  const options = useMemo(() => (open ? filterZones(allZones(), query ?? '') : []), [open, query]);
  const shown = options.slice(0, SHOWN);
  const optionId = (i: number) => `${listId}-option-${i}`;

  const close = () => {
    setOpen(false);
    setQuery(null);
  };
  const choose = (o: ZoneOption) => {
    onChange(o.zone);
    close();
  };
  const openAt = (q: string | null) => {
    setOpen(true);
    setQuery(q);
    const list = filterZones(allZones(), q ?? '');
    const at = q === null ? list.findIndex((o) => o.zone === (value || DEFAULT_TIME_ZONE)) : 0;
    setActive(Math.max(0, Math.min(at, SHOWN - 1)));
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
      e.preventDefault();
      if (!open) return openAt(query);
      const step = e.key === 'ArrowDown' ? 1 : -1;
      setActive((i) => Math.max(0, Math.min(shown.length - 1, i + step)));
    } else if (e.key === 'Enter') {
      if (!open) return;
      // Chooses; never submits the settings form from inside the list.
      e.preventDefault();
      const o = shown[active];
      if (o) choose(o);
    } else if (e.key === 'Escape') {
      if (open) {
        e.preventDefault();
        close();
      }
    }
  };

  return (
    <div className={`relative ${className ?? ''}`}>
      <FieldLabel id={id}>Zona horaria</FieldLabel>
      <div className="relative mt-1">
        <input
          id={id}
          type="text"
          role="combobox"
          aria-expanded={open}
          aria-controls={listId}
          aria-autocomplete="list"
          aria-activedescendant={open && shown[active] ? optionId(active) : undefined}
          autoComplete="off"
          spellCheck={false}
          disabled={disabled}
          value={query ?? current.label}
          placeholder="Buscar una ciudad"
          onChange={(e) => openAt(e.target.value)}
          onFocus={(e) => e.target.select()}
          onClick={() => {
            if (!open) openAt(null);
          }}
          onKeyDown={onKeyDown}
          onBlur={() => {
            close();
            onBlur?.();
          }}
          className={`${inputClass} pr-10`}
          {...fieldAria(id, hint, error)}
        />
        <button
          type="button"
          tabIndex={-1}
          aria-hidden="true"
          disabled={disabled}
          className="absolute inset-y-0 right-0 flex w-10 items-center justify-center text-stone-600"
          // Keeps the focus in the field: the list closes when the field loses it.
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => {
            if (open) return close();
            document.getElementById(id)?.focus();
            openAt(null);
          }}
        >
          <ChevronDown className="size-5" />
        </button>
      </div>
      <ul
        id={listId}
        role="listbox"
        aria-label="Zonas horarias"
        hidden={!open}
        className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-stone-300 bg-white py-1 shadow-lg"
      >
        {shown.map((o, i) => (
          <li
            key={o.zone}
            id={optionId(i)}
            role="option"
            aria-selected={o.zone === (value || DEFAULT_TIME_ZONE)}
            // The field keeps the focus (its blur would close the list before the tap lands).
            onMouseDown={(e) => e.preventDefault()}
            onClick={() => choose(o)}
            ref={i === active ? (el) => el?.scrollIntoView?.({ block: 'nearest' }) : undefined}
            className={`flex cursor-pointer items-baseline justify-between gap-3 px-3 py-2.5 ${
              i === active ? 'bg-amber-100 text-amber-950' : 'text-stone-900'
            }`}
          >
            <span className={o.zone === (value || DEFAULT_TIME_ZONE) ? 'font-semibold' : ''}>{o.label}</span>
            <span className="shrink-0 text-xs text-stone-600">{o.region}</span>
          </li>
        ))}
        {open && shown.length === 0 ? (
          <li role="presentation" className="px-3 py-2.5 text-stone-700">
            Ninguna zona coincide con «{query}».
          </li>
        ) : null}
        {options.length > SHOWN ? (
          <li role="presentation" className="px-3 py-2 text-sm text-stone-600">
            Escribe para ver más de las {options.length} zonas.
          </li>
        ) : null}
      </ul>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}
