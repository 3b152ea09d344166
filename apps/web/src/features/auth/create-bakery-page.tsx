import { needsBakery, ownsItsBakery } from '@hornada/domain/areas';
import { CreateBakeryInput } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigate } from 'react-router';
import { useStore } from 'zustand';
import { AuthCard, primaryButtonClass } from '../../components/auth-card';
import { FormAlert, TextField } from '../../components/forms/fields';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import type { SessionUser } from '../../lib/auth/session-types';
import { applyServerErrors, domainResolver } from '../../lib/form-rules';
import { http } from '../../lib/api/http';
import { toastStore } from '../../lib/toast-store';

interface BakeryForm {
  name: string;
  phone: string;
  whatsapp: string;
  address: string;
}

const FIELDS: readonly string[] = ['name', 'phone', 'whatsapp', 'address'];

/** The form's text as POST /api/companies takes it: optional fields left empty are null. */
function toInput(form: BakeryForm) {
  const optional = (value: string) => (value.trim() === '' ? null : value);
  return {
    name: form.name,
    phone: optional(form.phone),
    whatsapp: optional(form.whatsapp),
    address: optional(form.address),
  };
}

const secondaryLinkClass =
  'inline-flex w-full items-center justify-center rounded-lg border text-center border-stone-300 bg-white px-4 py-3 font-semibold text-stone-800 hover:bg-stone-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-900';

/**
 * `/createBakery` (public, docs/design.md §4): a guest is invited to sign up (or sign in) first; a company admin
 * without a bakery creates it; anyone else is shown the way to their own place.
 */
export function Component() {
  // The route's guard loader waited for the start-up auth check: the user is known here.
  const user = useStore(authStore, (s) => s.user);
  if (!user) return <GuestInvitation />;
  if (needsBakery(user)) return <CreateBakeryForm />;
  return <AlreadySettled user={user} />;
}

function GuestInvitation() {
  return (
    <AuthCard title="Crear tu panadería" subtitle="Vende en línea, organiza la producción y los domicilios del día.">
      <p className="text-stone-700">
        Para crear tu panadería, primero crea tu cuenta de administrador. Toma un minuto.
      </p>
      <div className="mt-6 space-y-3">
        <Link to={paths.signup} className={primaryButtonClass}>
          Crear cuenta
        </Link>
        <Link to={paths.loginWithRedirect(paths.createBakery)} className={secondaryLinkClass}>
          Ya tengo cuenta
        </Link>
      </div>
    </AuthCard>
  );
}

function AlreadySettled({ user }: { user: SessionUser }) {
  const hasBakery = ownsItsBakery(user);
  return (
    <AuthCard title="Crear tu panadería">
      <p className="text-stone-700">
        {hasBakery
          ? 'Tu cuenta ya administra una panadería. Cada cuenta de administrador maneja una sola.'
          : 'Solo una cuenta de administrador sin panadería puede crear una. Tu cuenta ya tiene su lugar en Hornada.'}
      </p>
      <div className="mt-6">
        <Link to={paths.userDashboard(user.uid)} className={primaryButtonClass}>
          {hasBakery ? 'Ir al panel de mi panadería' : 'Ir a mi inicio'}
        </Link>
      </div>
    </AuthCard>
  );
}

function CreateBakeryForm() {
  const navigate = useNavigate();
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<BakeryForm>({
    resolver: domainResolver(CreateBakeryInput, toInput),
    defaultValues: { name: '', phone: '', whatsapp: '', address: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      await http.post('/companies', toInput(form));
    } catch (err) {
      setFormError(applyServerErrors(err, (p) => FIELDS.includes(p), setError));
      return;
    }
    try {
      // The backend login re-reads the user: its companyId is now the new bakery's.
      await authStore.getState().refreshUser();
    } catch {
      // The bakery exists; a reload will pick the company up. Go on rather than offer to create it again.
    }
    toastStore.getState().show(`Tu panadería «${form.name.trim()}» está lista.`);
    await navigate(paths.dashboard.orders, { replace: true });
  });

  return (
    <AuthCard title="Crear tu panadería" subtitle="Estos datos los verán tus clientes. Puedes cambiarlos después.">
      <form onSubmit={submit} noValidate className="space-y-4">
        <FormAlert>{formError}</FormAlert>
        <TextField
          id="bakery-name"
          label="Nombre de la panadería"
          autoComplete="organization"
          registration={register('name')}
          error={errors.name?.message}
        />
        <TextField
          id="bakery-phone"
          label="Teléfono"
          labelNote="(opcional)"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          registration={register('phone')}
          error={errors.phone?.message}
        />
        <TextField
          id="bakery-whatsapp"
          label="WhatsApp"
          labelNote="(opcional)"
          type="tel"
          inputMode="tel"
          hint="El número al que tus clientes escriben por WhatsApp."
          registration={register('whatsapp')}
          error={errors.whatsapp?.message}
        />
        <TextField
          id="bakery-address"
          label="Dirección"
          labelNote="(opcional)"
          hint="Donde los clientes recogen sus pedidos."
          registration={register('address')}
          error={errors.address?.message}
        />
        <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
          {isSubmitting ? 'Creando panadería…' : 'Crear panadería'}
        </button>
      </form>
    </AuthCard>
  );
}
