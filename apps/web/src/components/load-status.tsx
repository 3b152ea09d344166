import type { ReactNode } from 'react';
import { secondaryButtonClass } from './ui/button';

/** What a page shows while its data loads: a spinner and what is being loaded, for screen readers too. */
export function LoadingStatus({ children }: { children: ReactNode }) {
  return (
    <p role="status" className="flex items-center gap-3 text-stone-600">
      <span
        className="size-5 animate-spin rounded-full border-2 border-amber-800 border-t-transparent motion-reduce:animate-none"
        aria-hidden="true"
      />
      {children}
    </p>
  );
}

/** What a page shows when its data could not be loaded: the reason and a way to try again. */
export function LoadFailed({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div role="alert" className="space-y-3">
      <p className="text-red-900">{message}</p>
      <button type="button" className={secondaryButtonClass} onClick={onRetry}>
        Intentar de nuevo
      </button>
    </div>
  );
}
