import { useEffect, useRef } from 'react';
import { getLiveStream } from './live-stream';

/**
 * Calls `onChange` when the company's settings change on the shared stream (design §3), or when changes may
 * have been missed (a reset): an open page reads again what the settings shape (the fee, the days and
 * windows offered, the market's name). The latest `onChange` is called; a new one does not resubscribe.
 */
export function useSettingsChanges(companyId: string | null, onChange: () => void): void {
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
  });
  useEffect(() => {
    if (!companyId) return;
    return getLiveStream().subscribe(companyId, 'settings', {
      onChanges: () => latest.current(),
      onReset: () => latest.current(),
    });
  }, [companyId]);
}
