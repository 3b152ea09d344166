import { Eye, EyeOff } from 'lucide-react';
import { useState, type InputHTMLAttributes, type ReactNode } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { inputClass } from '../auth-card';

/**
 * Labelled inputs for react-hook-form: the label is tied to the input, and its hint and error are read with
 * it (aria-describedby); a field with an error is aria-invalid.
 */

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'name' | 'onChange' | 'onBlur' | 'ref'>;

export interface FieldProps extends InputProps {
  id: string;
  label: ReactNode;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown after the label, e.g. "(opcional)". */
  labelNote?: ReactNode;
}

function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
  const ids = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean);
  return ids.length ? ids.join(' ') : undefined;
}

export function FieldMessages({ id, hint, error }: { id: string; hint?: ReactNode; error?: string | undefined }) {
  return (
    <>
      {hint ? (
        <p id={`${id}-hint`} className="mt-1 text-sm text-stone-600">
          {hint}
        </p>
      ) : null}
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm font-medium text-red-700">
          {error}
        </p>
      ) : null}
    </>
  );
}

export function FieldLabel({ id, children, note }: { id: string; children: ReactNode; note?: ReactNode }) {
  return (
    <label htmlFor={id} className="font-medium text-stone-800">
      {children}
      {note ? <span className="font-normal text-stone-600"> {note}</span> : null}
    </label>
  );
}

export function TextField({ id, label, registration, error, hint, labelNote, className, ...rest }: FieldProps) {
  return (
    <div className={className}>
      <FieldLabel id={id} note={labelNote}>
        {label}
      </FieldLabel>
      <input
        id={id}
        {...rest}
        {...registration}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, hint, error)}
        className={inputClass}
      />
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A password input with a show/hide button. */
export function PasswordField({
  id,
  label,
  registration,
  error,
  hint,
  labelNote,
  className,
  ...rest
}: Omit<FieldProps, 'type'>) {
  const [visible, setVisible] = useState(false);
  return (
    <div className={className}>
      <FieldLabel id={id} note={labelNote}>
        {label}
      </FieldLabel>
      <div className="relative">
        <input
          id={id}
          {...rest}
          {...registration}
          type={visible ? 'text' : 'password'}
          aria-invalid={error ? true : undefined}
          aria-describedby={describedBy(id, hint, error)}
          className={`${inputClass} pr-12`}
        />
        <button
          type="button"
          onClick={() => setVisible((v) => !v)}
          aria-pressed={visible}
          aria-controls={id}
          aria-label={visible ? 'Ocultar contraseña' : 'Mostrar contraseña'}
          className="absolute inset-y-0 right-0 mt-1 flex w-12 items-center justify-center rounded-r-lg text-stone-600 hover:text-stone-900 focus-visible:outline-2 focus-visible:outline-amber-700"
        >
          {visible ? <EyeOff className="size-5" aria-hidden="true" /> : <Eye className="size-5" aria-hidden="true" />}
        </button>
      </div>
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

/** A message about the whole form (a failed request), announced when it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
  if (!children) return null;
  return (
    <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
      {children}
    </p>
  );
}
