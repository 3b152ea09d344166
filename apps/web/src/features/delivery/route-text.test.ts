import { describe, expect, it } from 'vitest';
import { routeOrderedText } from './route-text';

describe('routeOrderedText', () => {
  it('says the route was ordered when every stop had a point', () => {
    expect(routeOrderedText('Mateo', 0)).toBe('Ruta de Mateo ordenada.');
  });

  it('counts the stops that went last, in the singular and the plural', () => {
    expect(routeOrderedText('Mateo', 1)).toBe('Ruta de Mateo ordenada. 1 parada sin ubicación quedó al final.');
    expect(routeOrderedText('Mateo', 3)).toBe('Ruta de Mateo ordenada. 3 paradas sin ubicación quedaron al final.');
  });
});
