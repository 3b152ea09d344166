import { describe, expect, it } from 'vitest';
import type { HttpClient, RequestOptions } from '../../lib/api/http';
import { asResourceHttp } from './resource-client';

describe('asResourceHttp', () => {
  it('passes query objects as the client’s options and reads lists into the service’s shape', async () => {
    const calls: [string, string, RequestOptions | undefined][] = [];
    const client = {
      get: async (path: string, options?: RequestOptions) => (calls.push(['get', path, options]), { id: 'a' }),
      list: async (path: string, options?: RequestOptions) => (
        calls.push(['list', path, options]),
        { items: [{ id: 'a' }], total: 31, page: 2 }
      ),
      post: async (path: string) => (calls.push(['post', path, undefined]), { id: 'b' }),
      put: async (path: string) => (calls.push(['put', path, undefined]), { id: 'b' }),
      patch: async (path: string) => (calls.push(['patch', path, undefined]), { id: 'b' }),
      delete: async (path: string) => (calls.push(['delete', path, undefined]), undefined),
    } as unknown as HttpClient;
    const http = asResourceHttp(client);
    expect(await http.list('/companies/c/products', { page: '2', sort: '-price' })).toEqual({
      items: [{ id: 'a' }],
      total: 31,
      page: 2,
      perPage: 0,
    });
    await http.get('/companies/c/products/a', { include: 'x' });
    await http.delete('/companies/c/products/a');
    expect(calls).toEqual([
      ['list', '/companies/c/products', { query: { page: '2', sort: '-price' } }],
      ['get', '/companies/c/products/a', { query: { include: 'x' } }],
      ['delete', '/companies/c/products/a', undefined],
    ]);
  });
});
