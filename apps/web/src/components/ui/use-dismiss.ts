import { useEffect, useRef } from 'react';

/**
 * A document shown over the page (a statement of account, a production sheet): its close button takes the
 * focus when it opens, and Escape closes it. Returns the ref for the close button.
 */
export function useDismiss(onClose: () => void) {
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    closeRef.current?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') onClose();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [onClose]);
  return closeRef;
}
