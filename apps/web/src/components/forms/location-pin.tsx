import { mapHref, pinText, roundCoordinate } from '@hornada/domain/order-display';
import { LocateFixed, X } from 'lucide-react';
import { useId, useState } from 'react';

/** A map pin: both coordinates. */
export interface Point {
  lat: number;
  lng: number;
}

/**
 * An address's map pin without map tiles (no tile service is reachable, nothing is downloaded at run
 * time): "Usar mi ubicación" asks the browser where the person is, the coordinates are shown with a link that
 * opens Google Maps there so they can check it, and the pin may be removed (the address then goes without
 * coordinates, routed last). The browser's refusals are explained in Spanish.
 */

/** What the person reads when the browser gives no position, by the GeolocationPositionError code. */
export function locationErrorText(code: number | 'unsupported'): string {
  switch (code) {
    case 'unsupported':
      return 'Este navegador no puede compartir tu ubicación. Puedes dejar solo la dirección.';
    case 1:
      return 'No diste permiso para usar tu ubicación. Para usarla, permítela en la configuración del navegador (el ícono junto a la dirección de la página) y vuelve a intentarlo; o deja solo la dirección.';
    case 2:
      return 'No pudimos saber dónde estás. Revisa que la ubicación del teléfono esté encendida y vuelve a intentarlo; o deja solo la dirección.';
    case 3:
      return 'Tu ubicación tardó demasiado en llegar. Vuelve a intentarlo, o deja solo la dirección.';
    default:
      return 'No pudimos obtener tu ubicación. Puedes dejar solo la dirección.';
  }
}

const buttonClass =
  'inline-flex min-h-11 items-center justify-center gap-2 rounded-lg border border-stone-300 bg-white px-3 py-2 font-medium text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-60';
const linkClass = 'font-medium text-amber-900 underline underline-offset-2 hover:text-amber-700';

export function LocationPin({
  value,
  onChange,
  hint = 'Opcional: úsala cuando estés en la dirección de entrega, para que el domiciliario llegue más fácil.',
}: {
  value: Point | null;
  onChange(point: Point | null): void;
  hint?: string;
}) {
  const id = useId();
  const [locating, setLocating] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const locate = () => {
    setError(null);
    if (typeof navigator === 'undefined' || !('geolocation' in navigator)) {
      setError(locationErrorText('unsupported'));
      return;
    }
    setLocating(true);
    navigator.geolocation.getCurrentPosition(
      (pos) => {
        setLocating(false);
        onChange({ lat: roundCoordinate(pos.coords.latitude), lng: roundCoordinate(pos.coords.longitude) });
      },
      (err) => {
        setLocating(false);
        setError(locationErrorText(err.code));
      },
      { enableHighAccuracy: true, timeout: 15_000, maximumAge: 60_000 },
    );
  };

  return (
    <div className="space-y-2" role="group" aria-labelledby={`${id}-title`} aria-describedby={`${id}-hint`}>
      <p id={`${id}-title`} className="font-medium text-stone-800">
        Ubicación en el mapa
      </p>
      <p id={`${id}-hint`} className="text-sm text-stone-700">
        {hint}
      </p>
      {value ? (
        <p className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="tabular-nums" data-testid="pin-coordinates">
            {pinText(value)}
          </span>
          <a className={linkClass} href={mapHref({ line: '', ...value }) ?? undefined} target="_blank" rel="noreferrer">
            Ver en el mapa<span className="sr-only"> (Google Maps, se abre en otra pestaña)</span>
          </a>
        </p>
      ) : (
        <p className="text-sm text-stone-700">Sin ubicación: el pedido va con la dirección escrita.</p>
      )}
      <div className="flex flex-wrap gap-2">
        <button type="button" className={buttonClass} onClick={locate} disabled={locating}>
          <LocateFixed className="size-4" aria-hidden="true" />
          {value ? 'Actualizar con mi ubicación' : 'Usar mi ubicación'}
        </button>
        {value ? (
          <button
            type="button"
            className={buttonClass}
            onClick={() => {
              setError(null);
              onChange(null);
            }}
          >
            <X className="size-4" aria-hidden="true" />
            Quitar ubicación
          </button>
        ) : null}
      </div>
      <p role="status" className="text-sm text-stone-700">
        {locating ? 'Buscando tu ubicación…' : ''}
      </p>
      {error ? (
        <p role="alert" className="text-sm font-medium text-red-800">
          {error}
        </p>
      ) : null}
    </div>
  );
}
