import { DEFAULT_TIME_ZONE } from './constants';

// Apart (money.ts) so that a page showing prices alone loads none of the rest: the storefront's first load.
export { formatMoney } from './money';

/** Money on a chart's axis, in money's own style, shortened: "$1.6M", "$450K". */
const compactMoney = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  notation: 'compact',
  maximumFractionDigits: 1,
});
export function formatMoneyCompact(amount: number): string {
  return compactMoney.format(amount);
}

/*
 * Quantities (stock, recipe lines, units to bake, counts) are not money: they read as a person in Colombia
 * writes them, a decimal comma and a thousands dot ("1.234,5"). Past 1 at most 2 decimals; under 1 three
 * significant digits, so 0,0125 kg of yeast is not shown as 0.
 */
const wholeQuantity = new Intl.NumberFormat('es-CO', { maximumFractionDigits: 2 });
const smallQuantity = new Intl.NumberFormat('es-CO', { maximumSignificantDigits: 3 });
const percents = new Intl.NumberFormat('es-CO', { minimumFractionDigits: 1, maximumFractionDigits: 1 });

/** A quantity in es-CO: '1.234,5', '0,5', '0,0125'; '' for a value that is not a finite number. */
export function formatQuantity(value: number): string {
  if (!Number.isFinite(value)) return '';
  const out = Math.abs(value) > 0 && Math.abs(value) < 1 ? smallQuantity.format(value) : wholeQuantity.format(value);
  return out === '-0' ? '0' : out;
}

/** A percent with one decimal, es-CO: '55,3 %'. */
export function formatPercent(value: number): string {
  return `${percents.format(value)} %`;
}

/**
 * The word for `count` things: the singular for exactly 1 (and -1), the plural otherwise ('0 pedidos').
 * The plural defaults to Spanish's regular one: + 's' after a vowel, + 'es' after a consonant.
 */
export function plural(count: number, singular: string, pluralForm?: string): string {
  if (Math.abs(count) === 1) return singular;
  return pluralForm ?? (/[aeiouáéó]$/i.test(singular) ? `${singular}s` : `${singular}es`);
}

/** A count and its noun: '1 pedido', '30 unidades', '1.200 pedidos'. */
export function formatCount(count: number, singular: string, pluralForm?: string): string {
  return `${formatQuantity(count)} ${plural(count, singular, pluralForm)}`;
}

/** How an ingredient's unit is written after a quantity; 'unidad' agrees with its number. */
export function unitLabel(unit: string, count: number): string {
  return unit === 'unidad' ? plural(count, 'unidad') : unit;
}

/**
 * A quantity with its unit as a baker says it: '2,4 kg', '30 unidades', '1 unidad'; with `bigUnits`
 * (a day's needs), grams past 1.000 read as kilos and millilitres as litres ('1,5 kg').
 */
export function formatAmount(amount: number, unit: string, options: { bigUnits?: boolean } = {}): string {
  if (options.bigUnits && Math.abs(amount) >= 1000 && (unit === 'g' || unit === 'ml')) {
    return `${formatQuantity(amount / 1000)} ${unit === 'g' ? 'kg' : 'l'}`;
  }
  return `${formatQuantity(amount)} ${unitLabel(unit, amount)}`;
}

/** What the date formatters read: the company's time zone (America/Bogota unless given) and the present. */
export interface DateFormatOptions {
  timeZone?: string;
  /** The present moment, for tests and for the server rendering a page; the clock unless given. */
  now?: Date | number;
}

/** A Date, an ISO 8601 instant or epoch milliseconds; null and undefined format as ''. */
export type DateInput = Date | string | number | null | undefined;

const LOCALE = 'es-CO';
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Intl formatters are costly to build: one per kind and time zone. */
function formatter(kind: 'ymd' | 'long' | 'time' | 'weekday', timeZone: string): Intl.DateTimeFormat {
  const key = `${kind}|${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    const options: Intl.DateTimeFormatOptions =
      kind === 'ymd'
        ? { year: 'numeric', month: '2-digit', day: '2-digit' }
        : kind === 'long'
          ? { year: 'numeric', month: 'long', day: 'numeric' }
          : kind === 'weekday'
            ? { weekday: 'long' }
            : { hour: 'numeric', minute: '2-digit', hour12: true };
    f = new Intl.DateTimeFormat(kind === 'ymd' ? 'en-CA' : LOCALE, { ...options, timeZone });
    formatters.set(key, f);
  }
  return f;
}

/**
 * ICU puts no-break spaces in "3:05 p. m." and their kind differs between ICU versions (Node and
 * browsers), so a page rendered on the server would not match the browser's. Plain spaces always.
 */
function plainSpaces(text: string): string {
  return text.replace(/[\u00a0\u202f]/g, ' ');
}

function toDate(value: DateInput): Date | null {
  if (value === null || value === undefined || value === '') return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Whole days from the epoch to the calendar day `date` falls on in `timeZone`. */
function dayNumber(date: Date, timeZone: string): number {
  const parts = formatter('ymd', timeZone).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value ?? NaN);
  return Date.UTC(part('year'), part('month') - 1, part('day')) / 86_400_000;
}

/** 'Hoy', 'Ayer' or 'Mañana' when `date` is that day in the time zone; null for any other day. */
function relativeDay(date: Date, timeZone: string, now: Date): string | null {
  switch (dayNumber(date, timeZone) - dayNumber(now, timeZone)) {
    case -1:
      return 'Ayer';
    case 0:
      return 'Hoy';
    case 1:
      return 'Mañana';
    default:
      return null;
  }
}

function settings(options: DateFormatOptions): { timeZone: string; now: Date } {
  const now = options.now === undefined ? new Date() : new Date(options.now);
  return { timeZone: options.timeZone ?? DEFAULT_TIME_ZONE, now };
}

/** A calendar day in Spanish (Colombia), without the relative words: '24 de noviembre de 2026'. '' for no date. */
export function formatDate(value: DateInput, options: Pick<DateFormatOptions, 'timeZone'> = {}): string {
  const date = toDate(value);
  if (!date) return '';
  return plainSpaces(formatter('long', options.timeZone ?? DEFAULT_TIME_ZONE).format(date));
}

/**
 * The day of `value` in the company's time zone as a person reads it (docs/product.md §1): 'Hoy', 'Ayer', 'Mañana',
 * or '24 de noviembre de 2026'. Days are compared in the time zone, not in UTC nor the browser's zone:
 * 2026-11-23T04:30Z is still 22 November in Bogotá. '' for a missing or invalid date.
 */
export function formatDay(value: DateInput, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { timeZone, now } = settings(options);
  return relativeDay(date, timeZone, now) ?? plainSpaces(formatter('long', timeZone).format(date));
}

/** Month abbreviations spelled here: ICU's differ between Node and browsers ("sept" or "sep"), and pages render on both. */
const SHORT_MONTHS = ['ene.', 'feb.', 'mar.', 'abr.', 'may.', 'jun.', 'jul.', 'ago.', 'sep.', 'oct.', 'nov.', 'dic.'];

/**
 * A day to choose or to be reminded of: its weekday and date always, after 'hoy' or 'mañana' when it
 * is one of those: 'mañana jueves 26 de nov.', 'sábado 28 de nov.'. Never the relative word alone, which also
 * names the morning window and goes wrong once a page is kept. Lower case: capitalise at a sentence's start.
 */
export function formatDayChoice(value: DateInput, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { timeZone, now } = settings(options);
  const parts = formatter('ymd', timeZone).formatToParts(date);
  const month = Number(parts.find((p) => p.type === 'month')?.value ?? 1);
  const day = Number(parts.find((p) => p.type === 'day')?.value ?? 1);
  const weekday = formatter('weekday', timeZone).format(date).toLocaleLowerCase('es-CO');
  const relative = relativeDay(date, timeZone, now);
  const prefix = relative === 'Hoy' || relative === 'Mañana' ? `${relative.toLocaleLowerCase('es-CO')} ` : '';
  return `${prefix}${weekday} ${day} de ${SHORT_MONTHS[month - 1]}`;
}

/** Text with its first letter in upper case (a label that starts a line). */
export function capitalise(text: string): string {
  return text.charAt(0).toLocaleUpperCase('es-CO') + text.slice(1);
}

/** The time of day in the company's time zone: '3:05 p. m.'. '' for a missing or invalid date. */
export function formatTime(value: DateInput, options: Pick<DateFormatOptions, 'timeZone'> = {}): string {
  const date = toDate(value);
  if (!date) return '';
  return plainSpaces(formatter('time', options.timeZone ?? DEFAULT_TIME_ZONE).format(date));
}

/** Day and time: 'Hoy, 3:05 p. m.' or '24 de noviembre de 2026, 3:05 p. m.'. '' for a missing or invalid date. */
export function formatDateTime(value: DateInput, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { timeZone } = settings(options);
  return `${formatDay(date, options)}, ${formatTime(date, { timeZone })}`;
}

/**
 * How long ago a moment was, by calendar days in the time zone (a last sign-in): 'Hoy', 'Ayer',
 * 'Hace 3 días'; past two months the day itself. '' for no date; a moment ahead of the clock reads 'Hoy'.
 */
export function formatDaysAgo(value: DateInput, options: DateFormatOptions = {}): string {
  const date = toDate(value);
  if (!date) return '';
  const { timeZone, now } = settings(options);
  const days = dayNumber(now, timeZone) - dayNumber(date, timeZone);
  if (days <= 0) return 'Hoy';
  if (days === 1) return 'Ayer';
  if (days < 60) return `Hace ${days} días`;
  return plainSpaces(formatter('long', timeZone).format(date));
}
