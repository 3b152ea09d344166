import { useEffect, useRef, useState } from 'react';
import { useRevalidator } from 'react-router';
import { applyChangesToList, type LiveChange } from './live-rules';
import type { Resource } from '../api/resource-service';
import { getLiveStream, type LiveLogger, type LiveStream } from './live-stream';

/** How one batch of changes updates a list (it returns the same list when nothing applies). */
export type ApplyLiveChanges<T> = (list: readonly T[], changes: readonly LiveChange[], companyId: string) => T[];

export interface LiveListOptions<T> {
  /**
   * How a batch applies: docs/product.md §4's rule by default (live-rules.ts: simple fields only); `applyWholeChanges`
   * where a record's arrays matter (a recipe's lines).
   */
  apply?: ApplyLiveChanges<T>;
  /**
   * What a reset (the server could not resume: changes were missed) reads again: the fresh list, or nothing when
   * the reload brings new `initial` data itself. By default the page's loaders run again (the router revalidates).
   */
  reload?: (signal: AbortSignal) => Promise<readonly T[] | void>;
}

/**
 * Follows `resource` of `companyId` on `stream`, handing each update of the list to `update`. After a reset the
 * list is read again with `reload` and replaced by what it read; a reload that fails leaves the list as it was
 * (logged), and one still running when the subscription ends is aborted and ignored. Returns the unsubscribe.
 */
export function bindLiveList<T>(
  stream: LiveStream,
  companyId: string,
  resource: string,
  update: (next: (list: T[]) => T[]) => void,
  options: { apply: ApplyLiveChanges<T>; reload: (signal: AbortSignal) => Promise<readonly T[] | void> },
  logger: LiveLogger = console,
): () => void {
  const controller = new AbortController();
  const unsubscribe = stream.subscribe(companyId, resource, {
    onChanges: (changes) => update((list) => options.apply(list, changes, companyId)),
    onReset: () => {
      Promise.resolve()
        .then(() => options.reload(controller.signal))
        .then((fresh) => {
          if (fresh && !controller.signal.aborted) update(() => [...fresh]);
        })
        .catch((err: unknown) => {
          if (!controller.signal.aborted) logger.warn(`[live] reloading ${resource} after a reset failed`, err);
        });
    },
  });
  return () => {
    controller.abort();
    unsubscribe();
  };
}

/**
 * A list rendered from data already read (a loader's, a screen's first read) and then kept current by the shared
 * stream (docs/design.md §3): what staff rename, reprice, add or take off shows on an open page without a reload. New
 * `initial` data (a navigation) replaces the list. After a reset the list is read again (`options.reload`).
 */
export function useLiveList<T extends Resource>(
  companyId: string | null,
  resource: string,
  initial: T[],
  options: LiveListOptions<T> = {},
): T[] {
  const [items, setItems] = useState(initial);
  const [from, setFrom] = useState(initial);
  if (from !== initial) {
    // The render-time reset React recommends over an effect: no frame shows the old page's list.
    setFrom(initial);
    setItems(initial);
  }
  const revalidator = useRevalidator();
  // The latest options and revalidator, read when an event comes: a new closure each render must not resubscribe.
  const latest = useRef({ options, revalidator });
  useEffect(() => {
    latest.current = { options, revalidator };
  });
  useEffect(() => {
    if (!companyId) return;
    return bindLiveList<T>(getLiveStream(), companyId, resource, setItems, {
      apply: (list, changes, id) => (latest.current.options.apply ?? applyChangesToList<T>)(list, changes, id),
      reload: async (signal) => {
        const { options: current, revalidator: router } = latest.current;
        if (current.reload) return current.reload(signal);
        await router.revalidate();
      },
    });
  }, [companyId, resource]);
  return items;
}
