import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDay,
  formatDayChoice,
  formatDaysAgo,
  formatAmount,
  formatCount,
  formatMoney,
  formatMoneyCompact,
  formatPercent,
  formatQuantity,
  formatTime,
  plural,
} from './format';

describe('formatMoney', () => {
  it('writes USD with a thousands comma and no decimals', () => {
    expect(formatMoney(4500)).toBe('$4,500');
    expect(formatMoney(0)).toBe('$0');
    expect(formatMoney(100_000_000)).toBe('$100,000,000');
    expect(formatMoney(999)).toBe('$999');
  });
  it('rounds cents away rather than showing them', () => {
    expect(formatMoney(4500.4)).toBe('$4,500');
    expect(formatMoney(4500.5)).toBe('$4,501');
  });
  it('marks negative amounts', () => {
    expect(formatMoney(-4500)).toBe('-$4,500');
  });
});

describe('formatDay in America/Bogota (UTC−5)', () => {
  // 23:30 on 22 November in Bogotá: still the 22nd there, already the 23rd in UTC.
  const now = new Date('2026-11-23T04:30:00Z');

  it('says Hoy for the same Bogotá day, at both of its ends', () => {
    expect(formatDay('2026-11-22T05:00:00.000Z', { now })).toBe('Hoy'); // 00:00 on the 22nd
    expect(formatDay('2026-11-23T04:59:59.999Z', { now })).toBe('Hoy'); // 23:59 on the 22nd
    expect(formatDay(now, { now })).toBe('Hoy');
  });
  it('says Ayer for the day before, though UTC calls it two days before', () => {
    expect(formatDay('2026-11-21T05:00:00.000Z', { now })).toBe('Ayer');
    expect(formatDay('2026-11-22T04:59:59.999Z', { now })).toBe('Ayer');
  });
  it('says Mañana for the day after, though UTC calls it the same day', () => {
    expect(formatDay('2026-11-23T05:00:00.000Z', { now })).toBe('Mañana');
    expect(formatDay('2026-11-24T04:59:59.999Z', { now })).toBe('Mañana');
  });
  it('writes other days in Spanish (Colombia)', () => {
    expect(formatDay('2026-11-24T05:00:00.000Z', { now })).toBe('24 de noviembre de 2026');
    expect(formatDay('2026-11-20T23:00:00.000Z', { now })).toBe('20 de noviembre de 2026');
    expect(formatDay('2027-01-01T12:00:00.000Z', { now })).toBe('1 de enero de 2027');
  });
  it('defaults to Bogotá and takes the company time zone when given', () => {
    const instant = '2026-11-23T02:00:00.000Z'; // 21:00 on the 22nd in Bogotá, 03:00 on the 23rd in Madrid
    const utcNow = new Date('2026-11-23T03:00:00Z');
    expect(formatDay(instant, { now: utcNow })).toBe('Hoy');
    expect(formatDay('2026-11-22T12:00:00.000Z', { now: utcNow })).toBe('Hoy');
    expect(formatDay('2026-11-22T12:00:00.000Z', { now: utcNow, timeZone: 'Europe/Madrid' })).toBe('Ayer');
  });
  it('reads ISO strings, epoch milliseconds and Dates alike, and gives "" for no date', () => {
    const ms = Date.parse('2026-11-21T15:00:00Z');
    expect(formatDay(ms, { now })).toBe('Ayer');
    expect(formatDay(new Date(ms), { now })).toBe('Ayer');
    expect(formatDay(null)).toBe('');
    expect(formatDay(undefined)).toBe('');
    expect(formatDay('not a date')).toBe('');
  });
  it('crosses month and year ends', () => {
    const newYear = new Date('2027-01-01T15:00:00Z');
    expect(formatDay('2026-12-31T15:00:00Z', { now: newYear })).toBe('Ayer');
    expect(formatDay('2027-01-02T15:00:00Z', { now: newYear })).toBe('Mañana');
  });
});

describe('formatDate, formatTime and formatDateTime', () => {
  const now = new Date('2026-11-22T20:00:00Z');
  it('formats the day without relative words', () => {
    expect(formatDate('2026-11-22T05:00:00.000Z')).toBe('22 de noviembre de 2026');
    expect(formatDate('2026-11-22T04:59:00.000Z')).toBe('21 de noviembre de 2026');
  });
  it('writes the Bogotá time with a. m. / p. m. and plain spaces', () => {
    expect(formatTime('2026-11-22T20:05:00Z')).toBe('3:05 p. m.');
    expect(formatTime('2026-11-22T05:00:00Z')).toBe('12:00 a. m.');
    expect(formatTime('2026-11-22T17:00:00Z')).toBe('12:00 p. m.');
  });
  it('joins day and time', () => {
    expect(formatDateTime('2026-11-22T20:05:00Z', { now })).toBe('Hoy, 3:05 p. m.');
    expect(formatDateTime('2026-11-21T14:30:00Z', { now })).toBe('Ayer, 9:30 a. m.');
    expect(formatDateTime('2026-11-25T20:05:00Z', { now })).toBe('25 de noviembre de 2026, 3:05 p. m.');
    expect(formatDateTime(null, { now })).toBe('');
  });
});

describe('formatDaysAgo', () => {
  const now = new Date('2026-11-25T15:00:00Z'); // 10:00 in Bogotá
  it('counts calendar days in the time zone', () => {
    expect(formatDaysAgo('2026-11-25T06:00:00Z', { now })).toBe('Hoy');
    // 23:30 on the 24th in Bogotá, though already the 25th in UTC.
    expect(formatDaysAgo('2026-11-25T04:30:00Z', { now })).toBe('Ayer');
    expect(formatDaysAgo('2026-11-22T15:00:00Z', { now })).toBe('Hace 3 días');
    expect(formatDaysAgo('2026-08-01T15:00:00Z', { now })).toBe('1 de agosto de 2026');
    expect(formatDaysAgo('2026-11-26T15:00:00Z', { now })).toBe('Hoy');
    expect(formatDaysAgo(null, { now })).toBe('');
  });
});

describe('formatDayChoice (a day reads with its weekday, never as a bare "Mañana")', () => {
  const now = new Date('2026-11-25T15:00:00.000Z'); // Wednesday 25 November, 10:00 in Bogotá
  it('names today and tomorrow and always gives the weekday and the date', () => {
    expect(formatDayChoice('2026-11-25T05:00:00.000Z', { now })).toBe('hoy miércoles 25 de nov.');
    expect(formatDayChoice('2026-11-26T05:00:00.000Z', { now })).toBe('mañana jueves 26 de nov.');
    expect(formatDayChoice('2026-11-28T05:00:00.000Z', { now })).toBe('sábado 28 de nov.');
    expect(formatDayChoice('2026-09-01T05:00:00.000Z', { now })).toBe('martes 1 de sep.');
    expect(formatDayChoice(null, { now })).toBe('');
  });
});

describe('formatQuantity: one es-CO format for quantities', () => {
  it('writes a decimal comma and a thousands dot', () => {
    expect(formatQuantity(0.5)).toBe('0,5');
    expect(formatQuantity(0.6)).toBe('0,6');
    expect(formatQuantity(1234.5)).toBe('1.234,5');
    expect(formatQuantity(1_600_000)).toBe('1.600.000');
    expect(formatQuantity(30)).toBe('30');
  });
  it('keeps 2 decimals past 1 and 3 significant digits under it', () => {
    expect(formatQuantity(2.456)).toBe('2,46');
    expect(formatQuantity(0.0125)).toBe('0,0125');
    expect(formatQuantity(0.33333)).toBe('0,333');
    expect(formatQuantity(-0.3)).toBe('-0,3');
    expect(formatQuantity(0)).toBe('0');
    expect(formatQuantity(-0)).toBe('0');
  });
  it('writes nothing for what is not a number', () => {
    expect(formatQuantity(Number.NaN)).toBe('');
  });
  it('writes percents with one decimal and money compact in money style', () => {
    expect(formatPercent(55.25)).toBe('55,3 %');
    expect(formatPercent(-4)).toBe('-4,0 %');
    expect(formatMoneyCompact(1_600_000)).toBe('$1.6M');
  });
});

describe('plural and formatCount', () => {
  it('agrees the noun with its number', () => {
    expect(formatCount(1, 'pedido')).toBe('1 pedido');
    expect(formatCount(2, 'pedido')).toBe('2 pedidos');
    expect(formatCount(0, 'pedido')).toBe('0 pedidos');
    expect(formatCount(30, 'unidad')).toBe('30 unidades');
    expect(formatCount(1, 'unidad')).toBe('1 unidad');
    expect(formatCount(1500, 'receta')).toBe('1.500 recetas');
    expect(plural(3, 'luz', 'luces')).toBe('luces');
    expect(plural(1.5, 'unidad')).toBe('unidades');
  });
  it("writes amounts with their unit, kilos and litres for a day's big needs", () => {
    expect(formatAmount(30, 'unidad')).toBe('30 unidades');
    expect(formatAmount(1, 'unidad')).toBe('1 unidad');
    expect(formatAmount(0.5, 'kg')).toBe('0,5 kg');
    expect(formatAmount(1500, 'g')).toBe('1.500 g');
    expect(formatAmount(1500, 'g', { bigUnits: true })).toBe('1,5 kg');
    expect(formatAmount(2500, 'ml', { bigUnits: true })).toBe('2,5 l');
    expect(formatAmount(600, 'ml', { bigUnits: true })).toBe('600 ml');
  });
});
