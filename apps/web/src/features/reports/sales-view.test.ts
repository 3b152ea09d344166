import { describe, expect, it } from 'vitest';
import { barWidth, changePercent, changeText } from './sales-view';

describe('sales view', () => {
  it('compares with the previous period, saying so when there was nothing before', () => {
    expect(changePercent(120, 100)).toBe(20);
    expect(changePercent(50, 100)).toBe(-50);
    expect(changePercent(10, 0)).toBeNull();
    expect(changeText(120, 100)).toBe('+20 % frente al periodo anterior');
    expect(changeText(80, 100)).toBe('−20 % frente al periodo anterior');
    expect(changeText(100, 100)).toBe('Igual que el periodo anterior');
    expect(changeText(5, 0)).toBe('Sin datos del periodo anterior');
    expect(changeText(0, 0)).toBe('Sin ventas en este ni en el periodo anterior');
  });

  it('sizes bars against the largest, a small value still visible', () => {
    expect(barWidth(50, 100)).toBe(50);
    expect(barWidth(1, 1000)).toBe(2);
    expect(barWidth(0, 100)).toBe(0);
    expect(barWidth(5, 0)).toBe(0);
  });
});
