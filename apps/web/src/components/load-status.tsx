import { secondaryButtonClass } from './ui/button';

export { LoadingStatus } from './loading-status';

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
