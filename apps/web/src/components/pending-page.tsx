import { LoadingStatus } from './loading-status';

/**
 * The neutral page the server sends for what only the browser renders (the sign-in pages, the areas), and
 * their HydrateFallback: the same markup on both sides.
 */
export function PendingPage() {
  return (
    <div className="mx-auto flex min-h-[40vh] max-w-5xl items-center justify-center px-4" aria-busy="true">
      {/* It stands only for pages that are never search results (sign-in pages, private areas). */}
      <meta name="robots" content="noindex" />
      <LoadingStatus>Cargando…</LoadingStatus>
    </div>
  );
}
