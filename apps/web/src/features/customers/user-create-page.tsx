import { UserCreateInput } from '@hornada/domain/identity';
import { creatableRoles, ROLE_LABELS_ES } from '@hornada/domain/people';
import { grantOf } from '@hornada/domain/policy';
import type { User } from '@hornada/domain/schemas/users';
import { useRef } from 'react';
import { useStore } from 'zustand';
import { PasswordField, SelectField, TextField } from '../../components/forms/fields';
import { FormActions, FormSection, ResourceFormPage } from '../../components/forms/form-layout';
import { optionalText } from '../../components/forms/form-values';
import { recordLoader, useResourceForm } from '../../components/forms/use-resource-form';
import { paths } from '../../config/paths';
import { authStore } from '../../lib/auth/auth-store';
import { PASSWORD_RULES_ES } from '../../lib/form-rules';
import { endSentence } from '@hornada/domain/text';

interface UserForm {
  name: string;
  email: string;
  role: string;
  phone: string;
  access: 'invite' | 'password';
  password: string;
}

const toInput = (form: UserForm) => ({
  name: form.name,
  email: form.email,
  role: form.role,
  phone: optionalText(form.phone),
  ...(form.access === 'invite' ? { invite: true } : { password: form.password }),
});

const isField = (path: string) => /^(name|email|role|phone|password)$/.test(path);

/** A new user: nothing to read but the company (the create route has no id). */
export const loader = recordLoader<User>('users');

/**
 * Dashboard › Usuarios › nuevo (docs/design.md §4): staff register customers, admins any company role, drivers and
 * production assistants included. The person gets a password now, or an e-mailed link to choose their own.
 */
export function Component() {
  const viewer = useStore(authStore, (s) => s.user?.role ?? null);
  const roles = viewer ? creatableRoles(viewer) : [];
  const onlyCustomers = viewer !== null && grantOf(viewer, 'users', 'create') === 'customers';
  // Which way the person got access, for the toast after saving.
  const invited = useRef(true);
  const rf = useResourceForm<User, UserForm>({
    resource: 'users',
    loader,
    schema: UserCreateInput,
    empty: { name: '', email: '', role: roles.at(-1) ?? '', phone: '', access: 'invite', password: '' },
    toForm: (u) => ({
      name: u.name,
      email: u.email,
      role: u.role,
      phone: u.phone ?? '',
      access: 'invite',
      password: '',
    }),
    toInput,
    isField,
    listPath: paths.dashboard.users,
    savedMessage: (u) =>
      invited.current
        ? `Creamos la cuenta de ${u.name} y le enviamos la invitación a ${u.email}.`
        : endSentence(`Creamos la cuenta de ${u.name}`),
  });
  const { register, watch, formState } = rf.form;
  const errors = formState.errors;
  const access = watch('access');
  invited.current = access === 'invite';
  return (
    <ResourceFormPage title="Nuevo usuario" backTo={paths.dashboard.users} backLabel="Usuarios" rf={rf}>
      {() => (
        <>
          <FormSection title="Datos de la persona">
            <TextField
              id="user-name"
              label="Nombre"
              autoComplete="off"
              registration={register('name')}
              error={errors.name?.message}
            />
            <TextField
              id="user-email"
              label="Correo"
              type="email"
              autoComplete="off"
              registration={register('email')}
              error={errors.email?.message}
            />
            <TextField
              id="user-phone"
              label="Teléfono"
              labelNote="(opcional)"
              type="tel"
              registration={register('phone')}
              error={errors.phone?.message}
            />
            <SelectField
              id="user-role"
              label="Rol"
              options={roles.map((r) => ({ value: r, label: ROLE_LABELS_ES[r] }))}
              registration={register('role')}
              error={errors.role?.message}
              hint={onlyCustomers ? 'Como parte del personal, puedes registrar clientes.' : undefined}
            />
          </FormSection>
          <FormSection title="Acceso">
            <fieldset className="grid gap-3">
              <legend className="sr-only">Cómo entra por primera vez</legend>
              <label className="flex items-start gap-3">
                <input type="radio" value="invite" {...register('access')} className="mt-1 size-5 accent-amber-800" />
                <span>
                  <span className="font-medium text-stone-800">Enviar invitación por correo</span>
                  <span className="block text-sm text-stone-600">
                    Recibe un enlace para elegir su contraseña. Vence en 7 días.
                  </span>
                </span>
              </label>
              <label className="flex items-start gap-3">
                <input type="radio" value="password" {...register('access')} className="mt-1 size-5 accent-amber-800" />
                <span className="font-medium text-stone-800">Definir una contraseña ahora</span>
              </label>
            </fieldset>
            {access === 'password' ? (
              <PasswordField
                id="user-password"
                label="Contraseña"
                autoComplete="new-password"
                hint={PASSWORD_RULES_ES}
                registration={register('password')}
                error={errors.password?.message}
              />
            ) : null}
          </FormSection>
          <FormActions saving={rf.saving} cancelTo={paths.dashboard.users} submitLabel="Crear usuario" />
        </>
      )}
    </ResourceFormPage>
  );
}
