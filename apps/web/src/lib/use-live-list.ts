import { useEffect, useState } from 'react';
import { applyChangesToList } from './live-rules';
import type { Resource } from './resource-service';
import { getLiveStream } from './live-stream';

/**
 * A list rendered from loader data and then kept current by the shared stream (design §3), with the live
 * rules of spec §4 (live-rules.ts): what staff rename, reprice, add or take off shows on an open page without
 * a reload. New loader data (a navigation) replaces the list. After a reset (too much missed) `onReset` runs;
 * by default the list keeps what it has until the next navigation.
 */
export function useLiveList<T extends Resource>(
  companyId: string | null,
  resource: string,
  initial: T[],
  onReset?: () => void,
): T[] {
  const [items, setItems] = useState(initial);
  const [from, setFrom] = useState(initial);
  if (from !== initial) {
    // The render-time reset React recommends over an effect: no frame shows the old page's list.
    setFrom(initial);
    setItems(initial);
  }
  useEffect(() => {
    if (!companyId) return;
    return getLiveStream().subscribe(companyId, resource, {
      onChanges: (changes) => setItems((list) => applyChangesToList(list, changes, companyId)),
      onReset: () => onReset?.(),
    });
  }, [companyId, resource, onReset]);
  return items;
}
