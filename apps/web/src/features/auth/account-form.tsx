import { ShopperSignUpInput } from '@hornada/domain/identity';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { primaryButtonClass } from '../../components/auth-card';
import { FormAlert, PasswordField, TextField } from '../../components/forms/fields';
import { applyServerErrors, domainResolver, PASSWORD_RULES_ES } from '../../lib/form-rules';
import { ApiError } from '../../lib/api/http';

/** What the server checks of a new account (name title-cased, e-mail, password), the domain's own schema. */
const AccountSchema = ShopperSignUpInput;

export interface AccountInput {
  name: string;
  email: string;
  password: string;
}

const FIELDS: readonly string[] = ['name', 'email', 'password'];
// The same answer whoever made the account (nothing more is told); its owner gets in by the recovery link,
// which also takes an account a bakery made for their address out of that bakery.
const EMAIL_IN_USE =
  'Ya existe una cuenta con ese correo. Si el correo es tuyo, inicia sesión o recupera tu contraseña; si no, usa otro correo.';

/**
 * A new account's name, e-mail and password, checked as the server checks them; `create` makes the account
 * (a bakery owner's on /signup, a shopper's on /registro). An address in use is said on its field; any other
 * refusal above the form.
 */
export function AccountForm({
  idPrefix,
  nameLabel,
  create,
}: {
  idPrefix: string;
  nameLabel: string;
  create(input: AccountInput): Promise<void>;
}) {
  const [formError, setFormError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<AccountInput>({
    resolver: domainResolver(AccountSchema),
    defaultValues: { name: '', email: '', password: '' },
    mode: 'onTouched',
  });

  const submit = handleSubmit(async (form) => {
    setFormError(null);
    try {
      await create({ name: form.name.trim(), email: form.email.trim(), password: form.password });
    } catch (err) {
      if (err instanceof ApiError && err.code === 'auth/email-in-use') {
        setError('email', { type: 'server', message: EMAIL_IN_USE }, { shouldFocus: true });
        return;
      }
      setFormError(applyServerErrors(err, (p) => FIELDS.includes(p), setError));
    }
  });

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <FormAlert>{formError}</FormAlert>
      <TextField
        id={`${idPrefix}-name`}
        label={nameLabel}
        autoComplete="name"
        registration={register('name')}
        error={errors.name?.message}
      />
      <TextField
        id={`${idPrefix}-email`}
        label="Correo electrónico"
        type="email"
        inputMode="email"
        autoComplete="email"
        registration={register('email')}
        error={errors.email?.message}
      />
      <PasswordField
        id={`${idPrefix}-password`}
        label="Contraseña"
        autoComplete="new-password"
        registration={register('password')}
        hint={PASSWORD_RULES_ES}
        error={errors.password?.message}
      />
      <button type="submit" disabled={isSubmitting} className={primaryButtonClass}>
        {isSubmitting ? 'Creando cuenta…' : 'Crear cuenta'}
      </button>
    </form>
  );
}
