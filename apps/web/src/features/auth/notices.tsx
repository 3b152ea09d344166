import { AUTH_ERROR_TEXTS_ES } from '@hornada/domain/errors-auth';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { primaryButtonClass } from '../../components/auth-card';
import { addErrorTexts } from '../../lib/api/error-texts';

// The recovery and reset pages call the API without the auth store (which adds these texts itself): the sign-in
// codes' texts load with their notices.
addErrorTexts(AUTH_ERROR_TEXTS_ES);

/** What the recovery, verification and Google pages end on: a success or a refusal, and the way on. */
export function SuccessNotice({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div
      role="status"
      className="space-y-3 rounded-lg border border-emerald-200 bg-emerald-50 px-4 py-3 text-emerald-950"
    >
      <p className="font-semibold">{title}</p>
      {children}
    </div>
  );
}

export function ErrorNotice({ message, children }: { message: string; children?: ReactNode }) {
  return (
    <div className="space-y-4">
      <p role="alert" className="rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-red-900">
        {message}
      </p>
      {children}
    </div>
  );
}

/** The primary action after a notice, as a link. */
export function ActionLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <Link to={to} className={`${primaryButtonClass} mt-2 block text-center`}>
      {children}
    </Link>
  );
}
