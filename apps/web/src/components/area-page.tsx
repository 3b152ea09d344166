import type { ReactNode } from 'react';
import { EmptyState } from './empty-state';

/** A back-office page: its title in the document and as the heading, then its content. */
export function AreaPage({ title, actions, children }: { title: string; actions?: ReactNode; children: ReactNode }) {
  return (
    <div className="px-4 py-6 sm:px-6">
      <title>{title}</title>
      {/* A private area's page (robots.txt also keeps crawlers out). */}
      <meta name="robots" content="noindex" />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-stone-900">{title}</h1>
        {actions}
      </div>
      <div className="mt-5">{children}</div>
    </div>
  );
}

/** A screen that a later version of Hornada builds: its layout, its title and an honest empty state. */
export function UnbuiltAreaPage({ title }: { title: string }) {
  return (
    <AreaPage title={title}>
      <EmptyState title="Esta sección todavía no está disponible.">
        <p>Estamos construyendo esta pantalla; por ahora no muestra datos.</p>
      </EmptyState>
    </AreaPage>
  );
}
