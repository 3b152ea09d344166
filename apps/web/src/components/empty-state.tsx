import type { ReactNode } from 'react';

/** An honest empty state: what is (not) here, and what the person can do instead. */
export function EmptyState({ title, children, action }: { title: string; children?: ReactNode; action?: ReactNode }) {
  return (
    <div className="rounded-xl border border-dashed border-stone-300 bg-white/60 px-6 py-10 text-center">
      <p className="text-lg font-semibold text-stone-800">{title}</p>
      {children ? <div className="mx-auto mt-2 max-w-prose text-stone-600">{children}</div> : null}
      {action ? <div className="mt-5">{action}</div> : null}
    </div>
  );
}
