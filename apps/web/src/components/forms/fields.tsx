import { Eye, EyeOff } from 'lucide-react';
import {
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';
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

export function describedBy(id: string, hint: ReactNode, error: string | undefined): string | undefined {
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

/** What every field shares: its label, its hint and error messages, and how the control refers to them. */
interface ShellProps {
  id: string;
  label: ReactNode;
  error?: string | undefined;
  hint?: ReactNode;
  /** Shown after the label, e.g. "(opcional)". */
  labelNote?: ReactNode;
  className?: string | undefined;
}

/** The attributes that tie a control to its hint and error. */
export function fieldAria(id: string, hint: ReactNode, error: string | undefined) {
  return { 'aria-invalid': error ? true : undefined, 'aria-describedby': describedBy(id, hint, error) } as const;
}

function FieldShell({ id, label, error, hint, labelNote, className, children }: ShellProps & { children: ReactNode }) {
  return (
    <div className={className}>
      <FieldLabel id={id} note={labelNote}>
        {label}
      </FieldLabel>
      {children}
      <FieldMessages id={id} hint={hint} error={error} />
    </div>
  );
}

export function TextField({ id, label, registration, error, hint, labelNote, className, ...rest }: FieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} labelNote={labelNote} className={className}>
      <input id={id} {...rest} {...registration} {...fieldAria(id, hint, error)} className={inputClass} />
    </FieldShell>
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
    <FieldShell id={id} label={label} error={error} hint={hint} labelNote={labelNote} className={className}>
      <div className="relative">
        <input
          id={id}
          {...rest}
          {...registration}
          type={visible ? 'text' : 'password'}
          {...fieldAria(id, hint, error)}
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
    </FieldShell>
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

type TextAreaProps = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'name' | 'onChange' | 'onBlur' | 'ref'>;

export interface TextAreaFieldProps extends TextAreaProps, Omit<ShellProps, 'className'> {
  registration: UseFormRegisterReturn;
}

/** A labelled multi-line input, with its hint and error read with it. */
export function TextAreaField({
  id,
  label,
  registration,
  error,
  hint,
  labelNote,
  className,
  ...rest
}: TextAreaFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} labelNote={labelNote} className={className}>
      <textarea id={id} rows={4} {...rest} {...registration} {...fieldAria(id, hint, error)} className={inputClass} />
    </FieldShell>
  );
}

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id' | 'name' | 'onChange' | 'onBlur' | 'ref'>;

export interface SelectFieldProps extends SelectProps, Omit<ShellProps, 'className'> {
  registration: UseFormRegisterReturn;
  options: readonly { value: string; label: string }[];
  /** The first option's text for "nothing chosen" (its value is ''); none when the field needs a value. */
  emptyLabel?: string;
}

/** A labelled native select (works with every keyboard and screen reader, and on phones opens their picker). */
export function SelectField({
  id,
  label,
  registration,
  options,
  emptyLabel,
  error,
  hint,
  labelNote,
  className,
  ...rest
}: SelectFieldProps) {
  return (
    <FieldShell id={id} label={label} error={error} hint={hint} labelNote={labelNote} className={className}>
      {/* Remounted when the options arrive, so the form's value is selected again (a native select shows the
          first option when its value was set before that option existed). */}
      <select
        key={options.length}
        id={id}
        {...rest}
        {...registration}
        {...fieldAria(id, hint, error)}
        className={inputClass}
      >
        {emptyLabel !== undefined ? <option value="">{emptyLabel}</option> : null}
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </FieldShell>
  );
}

/** A checkbox with its label beside it and an optional hint below. */
export function CheckboxField({
  id,
  label,
  registration,
  error,
  hint,
  className,
}: {
  id: string;
  label: ReactNode;
  registration: UseFormRegisterReturn;
  error?: string | undefined;
  hint?: ReactNode;
  className?: string;
}) {
  return (
    <div className={className}>
      <div className="flex items-start gap-3">
        <input
          id={id}
          type="checkbox"
          {...registration}
          {...fieldAria(id, hint, error)}
          className="mt-1 size-5 shrink-0 rounded border-stone-400 accent-amber-800"
        />
        <FieldLabel id={id}>{label}</FieldLabel>
      </div>
      <div className="pl-8">
        <FieldMessages id={id} hint={hint} error={error} />
      </div>
    </div>
  );
}
