import type { ChecklistItemId } from '@hornada/domain/shops';
import type { ShopSetup } from '@hornada/domain/schemas/answers';
import { can } from '@hornada/domain/policy';
import type { Role } from '@hornada/domain/roles';
import { Check, Circle, ExternalLink, Share2 } from 'lucide-react';
import { Suspense, use, useState } from 'react';
import { Link } from 'react-router';
import { buttonClass, secondaryButtonClass } from '../../components/ui/button';
import { paths } from '../../config/paths';
import { endpoints } from '../../lib/api/endpoints';

type Setup = ShopSetup;

/** Each item's Spanish name and the screen that completes it. */
const ITEMS: Record<ChecklistItemId, { label: string; hint: string; to: string }> = {
  logoAndContact: {
    label: 'Logo y datos de contacto',
    hint: 'Sube tu logo y escribe un teléfono o WhatsApp.',
    to: paths.dashboard.settings,
  },
  delivery: {
    label: 'Días y horarios de entrega',
    hint: 'Elige los días que entregas y al menos un horario.',
    to: paths.dashboard.settings,
  },
  product: {
    label: 'Tu primer producto con foto',
    hint: 'Publica un producto activo y ponle una foto.',
    to: paths.dashboard.productCreate,
  },
  payments: {
    label: 'Medios de pago',
    hint: 'Elige cómo te pagan; para transferencias, escribe los datos de la cuenta.',
    to: paths.dashboard.settings,
  },
};

/** The setup checklist of the owner's bakery; null for another role or when it cannot be read (it is a hint). */
export function readSetup(companyId: string, role: Role | null): Promise<Setup | null> {
  if (role === null || !can(role, 'settings', 'update')) return Promise.resolve(null);
  return endpoints.setup(companyId).catch(() => null);
}

/**
 * A new bakery's setup checklist on the dashboard (the screen does not wait for it; nothing shows until it comes): what is left before its shop opens, each item a
 * link to the screen that completes it, the shop's address and a share button. Gone once every item is done.
 */
export function SetupChecklist({ setup }: { setup: Promise<Setup | null> }) {
  return (
    <Suspense fallback={null}>
      <Arrived setup={setup} />
    </Suspense>
  );
}

/** The checklist once it came (it never fails: null is an answer). */
function Arrived({ setup }: { setup: Promise<Setup | null> }) {
  return <Checklist setup={use(setup)} />;
}

function Checklist({ setup }: { setup: Setup | null }) {
  const [shared, setShared] = useState<string | null>(null);
  if (!setup || setup.items.every((i) => i.done)) return null;

  const share = async () => {
    const data = { title: 'Mi panadería en línea', text: 'Haz tu pedido en mi tienda:', url: setup.shopUrl };
    try {
      if (typeof navigator.share === 'function') {
        await navigator.share(data);
        return;
      }
      await navigator.clipboard.writeText(setup.shopUrl);
      setShared('Copiamos el enlace de tu tienda.');
    } catch (err) {
      // Closing the share sheet is not a failure.
      if (err instanceof Error && err.name === 'AbortError') return;
      setShared(`No pudimos compartirlo. Copia este enlace: ${setup.shopUrl}`);
    }
  };

  return (
    <section aria-labelledby="setup-title" className="rounded-xl border border-amber-200 bg-amber-50 p-4">
      <h2 id="setup-title" className="text-lg font-bold text-stone-900">
        Prepara tu tienda
      </h2>
      <p className="mt-1 text-sm text-stone-700">
        {setup.ready
          ? 'Tu tienda ya está abierta. Completa lo que falta para que luzca mejor.'
          : 'Tu tienda dice «Abrimos pronto» hasta que tenga un teléfono o WhatsApp, días y horarios de entrega, un producto activo y medios de pago.'}
      </p>
      <ol className="mt-3 space-y-2">
        {setup.items.map((item) => {
          const text = ITEMS[item.id];
          return (
            <li key={item.id} className="flex items-start gap-2">
              {item.done ? (
                <Check className="mt-0.5 size-5 shrink-0 text-green-700" aria-hidden="true" />
              ) : (
                <Circle className="mt-0.5 size-5 shrink-0 text-stone-500" aria-hidden="true" />
              )}
              <div>
                <Link to={text.to} className="font-medium text-amber-900 underline hover:text-amber-800">
                  {text.label}
                </Link>
                <span className="sr-only">{item.done ? ' (hecho)' : ' (pendiente)'}</span>
                {item.done ? null : <p className="text-sm text-stone-600">{text.hint}</p>}
              </div>
            </li>
          );
        })}
      </ol>
      <div className="mt-4 flex flex-wrap items-center gap-2">
        <a href={setup.shopUrl} className={buttonClass}>
          <ExternalLink className="size-4" aria-hidden="true" />
          Ver mi tienda
        </a>
        <button type="button" onClick={() => void share()} className={`${secondaryButtonClass} min-h-11`}>
          <Share2 className="size-4" aria-hidden="true" />
          Compartir
        </button>
        <span className="break-all text-sm text-stone-700">{setup.shopUrl}</span>
      </div>
      <p role="status" className="mt-2 text-sm text-stone-700">
        {shared}
      </p>
    </section>
  );
}
