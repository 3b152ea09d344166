import { useBackOfficeShop } from './back-office-shop';

/**
 * The bakery's name for printed sheets: the one the back office's header names, read once by its area's layout
 * (empty while that read is under way).
 */
export function useMarketName(): string {
  return useBackOfficeShop()?.name ?? '';
}
