import { useLoaderData, type LoaderFunctionArgs } from 'react-router';
import { EmptyState } from '../../components/empty-state';
import { storefrontPaths as paths } from '../../config/storefront-paths';
import type { PublicSettings } from '../../lib/api/storefront-api';
import { market } from './market';
import { PageHead } from './page-head';

export async function privacyLoader({ context }: LoaderFunctionArgs) {
  const { api, companyId, site } = await market(context);
  const settings: Partial<PublicSettings> = companyId ? await api.settings(companyId) : {};
  return { ...site, policy: settings.privacyPolicy ?? '' };
}

export function PrivacyPage() {
  const { marketName, publicUrl, policy } = useLoaderData<typeof privacyLoader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHead
        title={`Política de privacidad · ${marketName}`}
        description={`Cómo ${marketName} trata tus datos personales.`}
        publicUrl={publicUrl}
        path={paths.privacy}
        siteName={marketName}
      />
      <h1 className="text-2xl font-bold sm:text-3xl">Política de privacidad</h1>
      {policy ? (
        <div className="mt-4 whitespace-pre-line leading-relaxed text-stone-800">{policy}</div>
      ) : (
        <div className="mt-6">
          <EmptyState title="Esta panadería aún no ha publicado su política de privacidad." />
        </div>
      )}
    </div>
  );
}
