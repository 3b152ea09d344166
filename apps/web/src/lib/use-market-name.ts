import { useEffect, useState } from 'react';
import { storefrontApi } from './api/storefront-api';

/** The bakery's name for printed sheets. */
export function useMarketName(companyId: string | null): string {
  const [name, setName] = useState('');
  useEffect(() => {
    if (!companyId) return;
    let live = true;
    storefrontApi(null)
      .settings(companyId)
      .then((s) => live && setName(s.marketName ?? ''))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [companyId]);
  return name;
}
