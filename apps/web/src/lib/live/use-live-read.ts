import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError, http, type Query } from '../api/http';
import { getLiveStream } from './live-stream';
import { companyPath } from '../api/paths';

export type LiveRead<T> = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready'; data: T };

/** Live changes gather this long before the read is made again. */
const REREAD_DELAY_MS = 300;

export const failureText = (err: unknown) =>
  err instanceof ApiError ? err.userMessage : 'No pudimos completar la operación.';

/**
 * A server-computed read (a production or delivery day) made again whenever one of `resources` changes in
 * the company (the shared live stream: another screen, the office, a driver), so every screen of the day
 * shows the same state without a reload. `onData` also receives each answer (the driver's offline copy).
 */
export function useLiveRead<T>(
  companyId: string | null,
  path: string,
  query: Query,
  resources: readonly string[],
  onData?: (data: T) => void,
) {
  const [load, setLoad] = useState<LiveRead<T>>({ state: 'loading' });
  const [round, setRound] = useState(0);
  // Read at answer time: a new function each render must not make a new read.
  const onDataRef = useRef(onData);
  const shownKey = useRef<string | null>(null);
  onDataRef.current = onData;
  const queryKey = JSON.stringify(query);
  const resourceKey = resources.join(',');
  useEffect(() => {
    if (!companyId) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const read = () =>
      http
        .get<T>(companyPath(companyId, ...path.split('/')), { query: JSON.parse(queryKey) as Query })
        .then((data) => {
          if (!live) return;
          setLoad({ state: 'ready', data });
          onDataRef.current?.(data);
        })
        .catch((err: unknown) => live && setLoad({ state: 'failed', message: failureText(err) }));
    // A reload of the same read keeps what is on screen until the answer comes (no flicker, inputs kept).
    const key = `${companyId}|${path}|${queryKey}`;
    if (shownKey.current !== key) setLoad({ state: 'loading' });
    shownKey.current = key;
    void read();
    const later = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => void read(), REREAD_DELAY_MS);
    };
    const stream = getLiveStream();
    const offs = resourceKey
      .split(',')
      .map((resource) => stream.subscribe(companyId, resource, { onChanges: later, onReset: later }));
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      for (const off of offs) off();
    };
  }, [companyId, path, queryKey, resourceKey, round]);
  const reload = useCallback(() => setRound((n) => n + 1), []);
  return { load, reload };
}
