import { useCallback, useEffect, useRef } from 'react';
import { useBlocker, type Blocker } from 'react-router';
import { ConfirmDialog } from '../ui/confirm-dialog';

/**
 * Warns before leaving a form with unsaved changes: the app's own links and Back (a dialog) and reloads or
 * closing the tab (the browser's own question). `allowNextNavigation` lets the navigation after a save through.
 */
export function useUnsavedChanges(dirty: boolean): { blocker: Blocker; allowNextNavigation(): void } {
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  const allowed = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirtyRef.current && !allowed.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);
  const allowNextNavigation = useCallback(() => {
    allowed.current = true;
  }, []);
  return { blocker, allowNextNavigation };
}

/** The dialog a blocked navigation opens: stay (the default) or leave without saving. */
export function UnsavedChangesDialog({ blocker }: { blocker: Blocker }) {
  // After "leave", the dialog's closing must not reset the blocker that is letting the navigation through.
  const leaving = useRef(false);
  if (blocker.state === 'unblocked') leaving.current = false;
  return (
    <ConfirmDialog
      open={blocker.state === 'blocked'}
      onOpenChange={(open) => {
        if (!open && !leaving.current && blocker.state === 'blocked') blocker.reset();
      }}
      title="¿Salir sin guardar?"
      description={<p>Tienes cambios sin guardar. Si sales ahora, se perderán.</p>}
      confirmLabel="Salir sin guardar"
      cancelLabel="Seguir editando"
      onConfirm={() => {
        if (blocker.state !== 'blocked') return;
        leaving.current = true;
        blocker.proceed();
      }}
    />
  );
}
