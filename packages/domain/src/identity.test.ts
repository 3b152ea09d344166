import { describe, expect, it } from 'vitest';
import { NAME_PARTICLES, titleCaseName } from './identity';

describe('titleCaseName', () => {
  it('title-cases every word but the particles', () => {
    expect(titleCaseName('MARÍA DE LOS ÁNGELES PÉREZ')).toBe('María de los Ángeles Pérez');
    expect(titleCaseName('juan del valle y la torre')).toBe('Juan del Valle y la Torre');
    expect(titleCaseName('ludwig VAN beethoven')).toBe('Ludwig van Beethoven');
    expect(titleCaseName('otto von der heide')).toBe('Otto von der Heide');
    expect(titleCaseName('leonardo di caprio')).toBe('Leonardo di Caprio');
    expect(titleCaseName('joão das neves dos santos da silva do carmo e sousa')).toBe(
      'João das Neves dos Santos da Silva do Carmo e Sousa',
    );
    expect(titleCaseName('ana de las mercedes')).toBe('Ana de las Mercedes');
  });
  it('keeps every particle of docs/product.md §1 in lower case', () => {
    const particles = ['de', 'del', 'la', 'las', 'los', 'y', 'e', 'da', 'das', 'do', 'dos', 'van', 'von', 'der', 'di'];
    expect([...NAME_PARTICLES].sort()).toEqual([...particles].sort());
    for (const p of particles) expect(titleCaseName(`ana ${p.toUpperCase()} ruiz`)).toBe(`Ana ${p} Ruiz`);
  });
  it('capitalises a particle that opens the name', () => {
    expect(titleCaseName('de la cruz')).toBe('De la Cruz');
  });
  it('capitalises each part of a hyphenated name and collapses spaces', () => {
    expect(titleCaseName('  maría-josé   gómez ')).toBe('María-José Gómez');
    expect(titleCaseName('ñusta ÑAÑEZ')).toBe('Ñusta Ñañez');
  });
  it('gives the same name however often it runs (the API and the server both apply it)', () => {
    for (const name of ['laura gómez de la hoz', 'HERNÁN DARÍO SALAZAR', 'De la Cruz', 'maría-josé del mar']) {
      const once = titleCaseName(name);
      expect(titleCaseName(once)).toBe(once);
    }
    expect(titleCaseName('laura gómez de la hoz')).toBe('Laura Gómez de la Hoz');
  });
  it('keeps initials in capitals, so a company name standing in for a contact keeps its "S.A.S."', () => {
    expect(titleCaseName('juan m. pérez')).toBe('Juan M. Pérez');
    expect(titleCaseName('j.m. rincón')).toBe('J.M. Rincón');
    expect(titleCaseName('HOTEL CASA DE LA SABANA S.A.S.')).toBe('Hotel Casa de la Sabana S.A.S.');
  });
  it('leaves words that merely start like a particle alone', () => {
    expect(titleCaseName('delia dea')).toBe('Delia Dea');
  });
});
