import type { ReactNode } from 'react';

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
