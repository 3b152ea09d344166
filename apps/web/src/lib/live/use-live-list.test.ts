import { describe, expect, it, vi } from 'vitest';
import { applyChangesToList, type LiveChange } from './live-rules';
import type { LiveHandlers, LiveStream } from './live-stream';
import type { Resource } from '../api/resource-service';
import { bindLiveList } from './use-live-list';

type Item = Resource & { name: string };

/** A stream that hands its one subscriber's handlers to the test. */
function fakeStream() {
  let handlers: LiveHandlers | null = null;
  const unsubscribed = vi.fn();
  const stream: LiveStream = {
    subscribe: (_companyId, _resource, h) => {
      handlers = h;
      return unsubscribed;
    },
    reconnect: () => undefined,
    onUnauthorized: () => () => undefined,
    close: () => undefined,
  };
  return { stream, handlers: () => handlers!, unsubscribed };
}

/** The list as the hook keeps it: each update applied in turn. */
function listState(initial: Item[]) {
  let list = initial;
  return { update: (next: (l: Item[]) => Item[]) => void (list = next(list)), get: () => list };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const item = (id: string, name: string): Item => ({ id, name });
const modified = (id: string, name: string): LiveChange => ({ type: 'modified', doc: { id, name } });

describe('a live list', () => {
  it('applies the changes, then on a reset reads the list again and shows what it read', async () => {
    const { stream, handlers } = fakeStream();
    const state = listState([item('a', 'Pan'), item('b', 'Torta')]);
    const reload = vi.fn(async () => [item('a', 'Pan grande'), item('c', 'Galletas')]);
    bindLiveList(stream, 'c1', 'products', state.update, { apply: applyChangesToList, reload });

    handlers().onChanges([modified('b', 'Torta de queso')]);
    expect(state.get().map((i) => i.name)).toEqual(['Pan', 'Torta de queso']);

    handlers().onReset();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(state.get().map((i) => i.name)).toEqual(['Pan grande', 'Galletas']);
  });

  it('keeps its list when the reload only asks the page to read again (nothing returned) or fails', async () => {
    const { stream, handlers } = fakeStream();
    const state = listState([item('a', 'Pan')]);
    const logger = { warn: vi.fn() };
    let fail = false;
    const reload = vi.fn(async () => {
      if (fail) throw new Error('offline');
    });
    bindLiveList(stream, 'c1', 'products', state.update, { apply: applyChangesToList, reload }, logger);

    handlers().onReset();
    await settle();
    expect(reload).toHaveBeenCalledTimes(1);
    expect(state.get().map((i) => i.name)).toEqual(['Pan']);

    fail = true;
    handlers().onReset();
    await settle();
    expect(state.get().map((i) => i.name)).toEqual(['Pan']);
    expect(logger.warn).toHaveBeenCalledWith('[live] reloading products after a reset failed', expect.any(Error));
  });

  it('ignores a reload that ends after the list closed, and aborts it', async () => {
    const { stream, handlers, unsubscribed } = fakeStream();
    const state = listState([item('a', 'Pan')]);
    let signal: AbortSignal | null = null;
    let finish: (items: Item[]) => void = () => undefined;
    const reload = (s: AbortSignal) => {
      signal = s;
      return new Promise<Item[]>((resolve) => (finish = resolve));
    };
    const stop = bindLiveList(stream, 'c1', 'products', state.update, { apply: applyChangesToList, reload });

    handlers().onReset();
    await settle();
    stop();
    expect(unsubscribed).toHaveBeenCalledTimes(1);
    expect(signal!.aborted).toBe(true);
    finish([item('z', 'Otra')]);
    await settle();
    expect(state.get().map((i) => i.name)).toEqual(['Pan']);
  });
});
