import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { createMemoryRouter, Link, RouterProvider } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { password } from '@hornada/domain/identity';
import { domainResolver } from '../../lib/form-rules';
import { CheckboxField, FormAlert, PasswordField, SelectField, TextField } from './fields';
import { FormActions } from './form-layout';
import { UnsavedChangesDialog, useUnsavedChanges } from './unsaved-changes';

/** The form kit as a person meets it: labels, Spanish problems read with their fields, and the leave guard. */

const Person = z.object({
  name: z.string().trim().min(1).max(40),
  email: z.email(),
  password: password(),
  role: z.enum(['staff', 'driver']),
  active: z.boolean(),
});
type PersonForm = z.input<typeof Person>;

const ROLES = [
  { value: 'staff', label: 'Personal' },
  { value: 'driver', label: 'Repartidor' },
];

function PersonPage({ onSave, rolesLater = false }: { onSave(v: PersonForm): Promise<void>; rolesLater?: boolean }) {
  const form = useForm<PersonForm>({
    resolver: domainResolver<PersonForm>(Person),
    defaultValues: { name: '', email: '', password: '', role: 'driver', active: true },
  });
  const { register, formState } = form;
  const { errors } = formState;
  // The options of a select may arrive after the form's value (read from the server).
  const [roles, setRoles] = useState(rolesLater ? [] : ROLES);
  useEffect(() => {
    if (rolesLater) setTimeout(() => setRoles(ROLES), 10);
  }, [rolesLater]);
  const [failure, setFailure] = useState<string | null>(null);
  const { blocker, allowNextNavigation } = useUnsavedChanges(formState.isDirty && !formState.isSubmitSuccessful);
  return (
    <form
      noValidate
      onSubmit={(e) =>
        void form.handleSubmit(async (v) => {
          try {
            await onSave(v);
            allowNextNavigation();
          } catch {
            setFailure('No pudimos guardar. Intenta de nuevo.');
          }
        })(e)
      }
    >
      <TextField id="name" label="Nombre" registration={register('name')} error={errors.name?.message} />
      <TextField
        id="email"
        label="Correo"
        type="email"
        hint="Le enviamos el enlace para entrar."
        registration={register('email')}
        error={errors.email?.message}
      />
      <PasswordField
        id="password"
        label="Contraseña"
        registration={register('password')}
        error={errors.password?.message}
      />
      <SelectField id="role" label="Rol" registration={register('role')} options={roles} error={errors.role?.message} />
      <CheckboxField id="active" label="Activa" registration={register('active')} />
      <FormAlert>{failure}</FormAlert>
      <FormActions saving={formState.isSubmitting} cancelTo="/people" submitLabel="Guardar" />
      <Link to="/people">Personas</Link>
      <UnsavedChangesDialog blocker={blocker} />
    </form>
  );
}

function renderPage(props: Parameters<typeof PersonPage>[0]) {
  const router = createMemoryRouter(
    [
      { path: '/people/new', element: <PersonPage {...props} /> },
      { path: '/people', element: <h1>Personas</h1> },
    ],
    { initialEntries: ['/people/new'] },
  );
  render(<RouterProvider router={router} />);
  return { router, user: userEvent.setup() };
}

describe('the form kit', () => {
  it('ties each label, hint and Spanish problem to its field', async () => {
    const onSave = vi.fn(async () => undefined);
    const { user } = renderPage({ onSave });
    const email = screen.getByLabelText('Correo');
    expect(email.getAttribute('aria-describedby')).toBe('email-hint');
    await user.type(email, 'ana@');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect(await screen.findByText('Este campo es obligatorio.')).toBeTruthy();
    expect(screen.getByLabelText('Nombre').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Nombre').getAttribute('aria-describedby')).toBe('name-error');
    expect(email.getAttribute('aria-describedby')).toBe('email-hint email-error');
    expect(screen.getByText('Escribe un correo válido, por ejemplo nombre@correo.com.').id).toBe('email-error');
    expect(screen.getByText(/La contraseña debe tener al menos/).id).toBe('password-error');
    expect(onSave).not.toHaveBeenCalled();
    // The first field with a problem has the focus.
    expect(document.activeElement).toBe(screen.getByLabelText('Nombre'));
  });

  it('shows and hides a password with its button, saying which', async () => {
    const { user } = renderPage({ onSave: async () => undefined });
    const input = screen.getByLabelText('Contraseña');
    expect(input.getAttribute('type')).toBe('password');
    await user.click(screen.getByRole('button', { name: 'Mostrar contraseña' }));
    expect(input.getAttribute('type')).toBe('text');
    expect(screen.getByRole('button', { name: 'Ocultar contraseña' }).getAttribute('aria-pressed')).toBe('true');
  });

  it('keeps a select on the form’s value when its options arrive late', async () => {
    renderPage({ onSave: async () => undefined, rolesLater: true });
    await waitFor(() => expect(screen.getAllByRole('option')).toHaveLength(2));
    expect((screen.getByLabelText('Rol') as HTMLSelectElement).value).toBe('driver');
  });

  it('says it is saving, sends the values, and leaves without asking once saved', async () => {
    let done: () => void = () => undefined;
    const onSave = vi.fn(() => new Promise<void>((resolve) => (done = resolve)));
    const { user, router } = renderPage({ onSave });
    await user.type(screen.getByLabelText('Nombre'), 'Ana');
    await user.type(screen.getByLabelText('Correo'), 'ana@correo.co');
    await user.type(screen.getByLabelText('Contraseña'), 'pandebono-del-dia');
    await user.click(screen.getByRole('checkbox', { name: 'Activa' }));
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    const saving = await screen.findByRole('button', { name: 'Guardando…' });
    expect((saving as HTMLButtonElement).disabled).toBe(true);
    expect(onSave).toHaveBeenCalledWith({
      name: 'Ana',
      email: 'ana@correo.co',
      password: 'pandebono-del-dia',
      role: 'driver',
      active: false,
    });
    done();
    await screen.findByRole('button', { name: 'Guardar' });
    await user.click(screen.getByRole('link', { name: 'Personas' }));
    expect(router.state.location.pathname).toBe('/people');
  });

  it('asks before leaving with changes: stay keeps them, leave goes', async () => {
    const { user, router } = renderPage({ onSave: async () => undefined });
    await user.type(screen.getByLabelText('Nombre'), 'Ana');
    await user.click(screen.getByRole('link', { name: 'Personas' }));
    expect(await screen.findByRole('alertdialog', { name: '¿Salir sin guardar?' })).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Seguir editando' }));
    expect(router.state.location.pathname).toBe('/people/new');
    expect((screen.getByLabelText('Nombre') as HTMLInputElement).value).toBe('Ana');
    await user.click(screen.getByRole('link', { name: 'Personas' }));
    await user.click(await screen.findByRole('button', { name: 'Salir sin guardar' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/people'));
  });

  it('says a failed save above the actions', async () => {
    const { user } = renderPage({ onSave: async () => Promise.reject(new Error('down')) });
    await user.type(screen.getByLabelText('Nombre'), 'Ana');
    await user.type(screen.getByLabelText('Correo'), 'ana@correo.co');
    await user.type(screen.getByLabelText('Contraseña'), 'pandebono-del-dia');
    await user.click(screen.getByRole('button', { name: 'Guardar' }));
    expect((await screen.findByRole('alert')).textContent).toBe('No pudimos guardar. Intenta de nuevo.');
  });
});
