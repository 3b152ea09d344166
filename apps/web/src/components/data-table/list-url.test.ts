import { describe, expect, it } from 'vitest';
import {
  activeFilters,
  changeView,
  isNarrowed,
  pageCount,
  rangeLabel,
  readListView,
  toggleSort,
  viewDefaults,
  writeListView,
  type ListViewConfig,
} from './list-url';

const config: ListViewConfig = {
  sortFields: ['createdAt', 'name', 'price'],
  filterKeys: ['active', 'collectionId'],
};

const read = (query: string) => readListView(new URLSearchParams(query), config);

describe('readListView', () => {
  it('gives the defaults for an empty query (newest first, 10 a page)', () => {
    expect(read('')).toEqual({
      search: '',
      sortBy: 'createdAt',
      sortDesc: true,
      page: 1,
      perPage: 10,
      filters: { active: '', collectionId: '' },
    });
  });

  it('reads search, sort, page, page size and filters', () => {
    expect(read('q=pan&sort=-price&page=3&per_page=25&active=true&collectionId=c1')).toEqual({
      search: 'pan',
      sortBy: 'price',
      sortDesc: true,
      page: 3,
      perPage: 25,
      filters: { active: 'true', collectionId: 'c1' },
    });
    expect(read('sort=name')).toMatchObject({ sortBy: 'name', sortDesc: false });
  });

  it('ignores what the table does not offer or a URL cannot mean', () => {
    const view = read('sort=password&page=0&per_page=7&brandId=b1');
    expect(view).toMatchObject({ sortBy: 'createdAt', sortDesc: true, page: 1, perPage: 10 });
    expect(view.filters).not.toHaveProperty('brandId');
    expect(read('page=-2').page).toBe(1);
    expect(read('page=1.5').page).toBe(1);
    expect(read('page=99999999999').page).toBe(1);
    expect(read('per_page=1000000').perPage).toBe(10);
    expect(read(`q=${'a'.repeat(500)}`).search).toHaveLength(200);
  });

  it('honours a table whose default order is not the store default', () => {
    const byName: ListViewConfig = { sortFields: ['name'], defaults: { sortBy: 'name', sortDesc: false } };
    expect(readListView(new URLSearchParams(''), byName)).toMatchObject({ sortBy: 'name', sortDesc: false });
    expect(writeListView(viewDefaults(byName), byName).toString()).toBe('');
  });
});

describe('writeListView', () => {
  it('writes only what differs from the defaults, and reads back the same view', () => {
    expect(writeListView(viewDefaults(config), config).toString()).toBe('');
    const view = { ...viewDefaults(config), search: ' pan de bono ', sortBy: 'price', sortDesc: false, page: 2 };
    view.filters = { active: 'false', collectionId: '' };
    const query = writeListView(view, config);
    expect(query.toString()).toBe('q=pan+de+bono&sort=price&page=2&active=false');
    expect(readListView(query, config)).toEqual({ ...view, search: 'pan de bono' });
  });

  it('keeps parameters that are not the table’s', () => {
    const base = new URLSearchParams('tab=2&q=old&page=4');
    expect(writeListView(viewDefaults(config), config, base).toString()).toBe('tab=2');
  });
});

describe('changeView', () => {
  const onPage3 = { ...viewDefaults(config), page: 3 };
  it('goes back to page 1 when the list itself changes', () => {
    expect(changeView(onPage3, { search: 'pan' }).page).toBe(1);
    expect(changeView(onPage3, { sortBy: 'name' }).page).toBe(1);
    expect(changeView(onPage3, { perPage: 50 }).page).toBe(1);
    expect(changeView(onPage3, { filters: { active: 'true' } })).toMatchObject({
      page: 1,
      filters: { active: 'true', collectionId: '' },
    });
  });
  it('keeps the page when nothing about the list changes, or a page is asked for', () => {
    expect(changeView(onPage3, { search: '' }).page).toBe(3);
    expect(changeView(onPage3, { page: 4 }).page).toBe(4);
  });
});

describe('helpers', () => {
  it('toggles a column: new column ascending, the same one flips', () => {
    const view = viewDefaults(config);
    expect(toggleSort(view, 'name')).toEqual({ sortBy: 'name', sortDesc: false });
    expect(toggleSort({ ...view, sortBy: 'name', sortDesc: false }, 'name')).toEqual({
      sortBy: 'name',
      sortDesc: true,
    });
    expect(toggleSort(view, 'createdAt')).toEqual({ sortBy: 'createdAt', sortDesc: false });
  });
  it('sends only the filters that are set', () => {
    expect(activeFilters({ ...viewDefaults(config), filters: { active: 'true', collectionId: '' } })).toEqual({
      active: 'true',
    });
  });
  it('counts pages and says the range in Spanish', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(31, 10)).toBe(4);
    expect(rangeLabel(1, 10, 0)).toBe('0 resultados');
    expect(rangeLabel(2, 10, 34)).toBe('11–20 de 34');
    expect(rangeLabel(4, 10, 34)).toBe('31–34 de 34');
    expect(rangeLabel(1, 10, 1200)).toBe('1–10 de 1.200');
  });
  it('knows when a search or filter narrows the list', () => {
    expect(isNarrowed(viewDefaults(config))).toBe(false);
    expect(isNarrowed({ ...viewDefaults(config), search: 'x' })).toBe(true);
    expect(isNarrowed({ ...viewDefaults(config), filters: { active: 'true' } })).toBe(true);
  });
});
