import { data } from 'react-router';
import { storefrontApi } from '../../lib/api/storefront-api';

/** A storefront page's 404 (its error boundary shows the Spanish not-found page). */
export const notFound = () => data(null, { status: 404 });

/** What every storefront page's loader starts from: the market's API, config and the site's name and URL. */
export async function market(context: unknown) {
  const api = storefrontApi(context);
  const config = await api.config();
  return {
    api,
    config,
    companyId: config.companyId,
    site: { marketName: config.marketName, publicUrl: config.publicUrl, opening: config.opening },
  };
}
