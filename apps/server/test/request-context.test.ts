/**
 * The request context on a bare Fastify app (no database): one instant a request whatever the clock does
 * meanwhile, the route's company, and the shop read only when asked, once.
 */
import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import type { AppContext } from '../src/context';
import { RequestContext, registerRequestContext } from '../src/request-context';

function appWith(resolve: (host: string) => Promise<unknown>) {
  let tick = Date.UTC(2030, 0, 1);
  const app = Fastify();
  // What the hook reads of the app-wide core: a clock that moves on every read, and the shop directory.
  app.decorate('ctx', { clock: { now: () => new Date((tick += 1000)) }, shops: { resolve } } as unknown as AppContext);
  app.decorateRequest('caller', null);
  registerRequestContext(app);
  return app;
}

describe('RequestContext', () => {
  it('gives a request one instant, the company its path names, and its shop only when asked, once', async () => {
    const resolve = vi.fn(async (host: string) => ({ companyId: `shop of ${host}`, origin: 'http://x' }));
    const app = appWith(resolve);
    app.get('/api/companies/:companyId/seen', async (req) => {
      const first = req.rc.now.getTime();
      await new Promise((r) => setTimeout(r, 5));
      const [a, b] = await Promise.all([req.rc.shop(), req.rc.shop()]);
      return { first, again: req.rc.now.getTime(), company: req.rc.company(), a, b, caller: req.rc.caller };
    });
    app.get('/plain', async (req) => ({ company: req.rc.companyId }));

    expect(resolve).not.toHaveBeenCalled();
    const seen = (await app.inject({ url: '/api/companies/c1/seen', headers: { host: 'pan.example' } })).json();
    expect(seen.again).toBe(seen.first);
    expect(seen.company).toBe('c1');
    expect(seen.caller).toBeNull();
    expect(seen.a).toEqual({ companyId: 'shop of pan.example', origin: 'http://x' });
    expect(seen.b).toEqual(seen.a);
    expect(resolve).toHaveBeenCalledTimes(1);

    expect((await app.inject({ url: '/plain' })).json()).toEqual({ company: null });
    // Nobody asked for the shop there: no read.
    expect(resolve).toHaveBeenCalledTimes(1);
    await app.close();
  });

  it("makes the server's own contexts: no caller and no shop unless given, the clock's instant by default", async () => {
    const clock = { now: () => new Date('2030-01-01T12:00:00Z') };
    const rc = RequestContext.forSystem(clock, { companyId: 'c1' });
    expect(rc.caller).toBeNull();
    expect(rc.company()).toBe('c1');
    expect(rc.now).toEqual(clock.now());
    expect(await rc.shop()).toBeNull();
    expect(() => RequestContext.forSystem(clock).company()).toThrow('This request names no company');
  });
});
