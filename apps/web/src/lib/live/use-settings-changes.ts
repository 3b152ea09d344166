import { useEffect, useRef } from 'react';
import { getLiveStream } from './live-stream';

/**
 * Calls `onChange` when one of the company's resources changes on the shared stream (docs/design.md §3), or when
 * changes may have been missed (a reset): an open page reads again what that resource shapes. The latest
 * `onChange` is called; a new one does not resubscribe.
 */
export function useLiveChanges(companyId: string | null, resource: string, onChange: () => void): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (!companyId) return;
    return getLiveStream().subscribe(companyId, resource, {
      onChanges: () => latest.current(),
      onReset: () => latest.current(),
    });
  }, [companyId, resource]);
}

/** The company's settings changed (the fee, the days and windows offered, the market's name). */
export function useSettingsChanges(companyId: string | null, onChange: () => void): void {
  useLiveChanges(companyId, 'settings', onChange);
}
