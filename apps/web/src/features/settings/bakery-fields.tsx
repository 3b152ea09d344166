import { Controller, type UseFormReturn } from 'react-hook-form';
import { TextField } from '../../components/forms/fields';
import { FormSection } from '../../components/forms/form-layout';
import { SingleImageField, type UploadsHandle } from '../../components/forms/image-fields';
import type { SettingsForm } from './settings-form';

/** An OpenStreetMap link to a point (no map library or tiles: the numbers are what is saved). */
export const mapLink = (lat: number, lng: number) =>
  `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=17/${lat}/${lng}`;

/** The shop as customers see it: name, logo, phone, WhatsApp, address and the map pin. */
export function BakeryFields({
  form,
  companyId,
  uploadsRef,
}: {
  form: UseFormReturn<SettingsForm>;
  companyId: string | null;
  uploadsRef?: React.RefObject<UploadsHandle | null>;
}) {
  const { register, control, formState, watch } = form;
  const errors = formState.errors;
  const [lat, lng] = [Number(watch('location.lat').replace(',', '.')), Number(watch('location.lng').replace(',', '.'))];
  const pinned = watch('location.lat').trim() !== '' && Number.isFinite(lat) && Number.isFinite(lng);
  return (
    <FormSection
      title="La tienda"
      description="Lo que tus clientes ven: el nombre en la tienda, el logo y cómo encontrarte."
    >
      <TextField
        id="settings-market-name"
        label="Nombre de la panadería"
        registration={register('marketName')}
        error={errors.marketName?.message}
      />
      <Controller
        control={control}
        name="logo"
        render={({ field }) => (
          <SingleImageField
            companyId={companyId}
            label="Logo"
            value={field.value}
            onChange={field.onChange}
            error={errors.logo?.alt?.message ?? errors.logo?.message}
            {...(uploadsRef ? { uploadsRef } : {})}
          />
        )}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          id="settings-phone"
          label="Teléfono"
          labelNote="(opcional)"
          type="tel"
          autoComplete="tel"
          registration={register('phone')}
          error={errors.phone?.message}
        />
        <TextField
          id="settings-whatsapp"
          label="WhatsApp"
          labelNote="(opcional)"
          type="tel"
          hint="Con indicativo, por ejemplo 573001234567."
          registration={register('whatsapp')}
          error={errors.whatsapp?.message}
        />
      </div>
      <TextField
        id="settings-address"
        label="Dirección"
        labelNote="(opcional)"
        registration={register('address')}
        error={errors.address?.message}
      />
      <fieldset className="space-y-2">
        <legend className="font-medium text-stone-800">
          Ubicación en el mapa <span className="font-normal text-stone-600">(opcional)</span>
        </legend>
        <p className="text-sm text-stone-600">
          Desde aquí salen las rutas de los domiciliarios. Copia la latitud y la longitud de tu mapa (por ejemplo, clic
          derecho en OpenStreetMap o Google Maps).
        </p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            id="settings-lat"
            label="Latitud"
            inputMode="decimal"
            placeholder="4.6097"
            registration={register('location.lat')}
            error={errors.location?.lat?.message ?? errors.location?.message}
          />
          <TextField
            id="settings-lng"
            label="Longitud"
            inputMode="decimal"
            placeholder="-74.0817"
            registration={register('location.lng')}
            error={errors.location?.lng?.message}
          />
        </div>
        {pinned ? (
          <a
            href={mapLink(lat, lng)}
            target="_blank"
            rel="noreferrer"
            className="inline-block text-sm font-medium text-amber-900 underline"
          >
            Ver el punto en OpenStreetMap
          </a>
        ) : null}
      </fieldset>
    </FormSection>
  );
}
