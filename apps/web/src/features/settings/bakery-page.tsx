import { ExternalLink, MapPin, MessageCircle, Pencil, Phone } from 'lucide-react';
import { Link } from 'react-router';
import { AreaPage } from '../../components/area-page';
import { Thumb } from '../../components/forms/image-fields';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { mapLink } from './bakery-fields';
import { useCanSaveSettings, useSettings } from './use-settings-document';

export { settingsLoader as loader } from './use-settings-document';

/** Dashboard › Mi panadería: the bakery as its customers see it (name, logo, contact, address). */
export function Component() {
  const { load } = useSettings();
  const canSave = useCanSaveSettings();
  return (
    <AreaPage
      title="Mi panadería"
      actions={
        canSave ? (
          <Link to={paths.dashboard.updateBakery} className={buttonClass}>
            <Pencil className="size-4" aria-hidden="true" />
            Editar
          </Link>
        ) : null
      }
    >
      {load.state === 'failed' ? (
        <p role="alert" className="text-red-900">
          {load.message}
        </p>
      ) : (
        <Face settings={load.data} />
      )}
    </AreaPage>
  );
}

function Face({ settings: s }: { settings: import('@hornada/domain/schemas/settings').Settings }) {
  const whatsapp = s.whatsapp?.replace(/\D/g, '');
  return (
    <div className="grid max-w-3xl gap-4">
      <p className="text-stone-700">Así te ven tus clientes en la tienda.</p>
      <section
        aria-label="Vista de la tienda"
        className="overflow-hidden rounded-2xl border border-stone-200 bg-white shadow-sm"
      >
        <div className="flex items-center gap-4 border-b border-stone-200 bg-amber-50/60 p-4 sm:p-6">
          {s.logo ? (
            <Thumb image={s.logo} size="size-16" />
          ) : (
            <span
              aria-hidden="true"
              className="flex size-16 shrink-0 items-center justify-center rounded-lg bg-amber-900 text-2xl font-bold text-white"
            >
              {s.marketName.slice(0, 1).toUpperCase()}
            </span>
          )}
          <div className="min-w-0">
            <h2 className="text-xl font-bold text-stone-900 sm:text-2xl">{s.marketName}</h2>
            {s.logo?.alt ? <p className="text-sm text-stone-600">Logo: {s.logo.alt}</p> : null}
          </div>
        </div>
        <dl className="grid gap-4 p-4 sm:grid-cols-2 sm:p-6">
          <Item icon={<Phone className="size-5" aria-hidden="true" />} term="Teléfono">
            {s.phone ? <a href={`tel:${s.phone.replace(/\s/g, '')}`}>{s.phone}</a> : <Missing />}
          </Item>
          <Item icon={<MessageCircle className="size-5" aria-hidden="true" />} term="WhatsApp">
            {whatsapp ? (
              <a href={`https://wa.me/${whatsapp}`} target="_blank" rel="noreferrer">
                {s.whatsapp}
              </a>
            ) : (
              <Missing />
            )}
          </Item>
          <Item icon={<MapPin className="size-5" aria-hidden="true" />} term="Dirección">
            {s.address ?? <Missing />}
            {s.location ? (
              <a
                className="mt-1 block text-sm"
                href={mapLink(s.location.lat, s.location.lng)}
                target="_blank"
                rel="noreferrer"
              >
                Ver en el mapa ({s.location.lat}, {s.location.lng})
              </a>
            ) : null}
          </Item>
        </dl>
      </section>
      <div>
        <a href={paths.home} target="_blank" rel="noreferrer" className={secondaryButtonClass}>
          <ExternalLink className="size-4" aria-hidden="true" />
          Abrir la tienda
        </a>
      </div>
    </div>
  );
}

function Item({ icon, term, children }: { icon: React.ReactNode; term: string; children: React.ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="flex items-center gap-2 text-sm font-medium text-stone-600">
        <span className="text-amber-900">{icon}</span>
        {term}
      </dt>
      <dd className="mt-1 break-words pl-7 text-stone-900 [&_a]:font-medium [&_a]:text-amber-900 [&_a]:underline">
        {children}
      </dd>
    </div>
  );
}

const Missing = () => <span className="text-stone-600">Sin escribir</span>;
