import { Link } from 'react-router';
import { storefrontPaths as paths } from '../config/storefront-paths';
import { PLATFORM_NAME } from '../lib/page-voice';

/** The footer (docs/product.md §1): the privacy policy link. */
export function SiteFooter({ marketName }: { marketName: string }) {
  return (
    <footer className="mt-16 border-t border-stone-200 bg-white/70">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-6 text-sm text-stone-600">
        <p>{marketName === PLATFORM_NAME ? PLATFORM_NAME : `${marketName} · con ${PLATFORM_NAME}`}</p>
        <Link
          to={paths.privacy}
          className="font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700"
        >
          Política de privacidad
        </Link>
      </div>
    </footer>
  );
}
