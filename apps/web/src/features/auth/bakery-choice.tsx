import type { LinkInfo } from '@hornada/domain/identity';
import { ROLE_LABELS_ES } from '@hornada/domain/people';
import { useEffect, useState } from 'react';
import { endpoints } from '../../lib/api/endpoints';

/** The bakery that made a link's account for the owner's address, and the role it gave. */
export type MadeBy = NonNullable<LinkInfo['madeBy']>;

const NOTHING: LinkInfo = { madeBy: null, invitation: null, platform: false };

/**
 * Asks the server what a recovery, invitation or verification link's page must know first: undefined while
 * asking, then the answer. A failed question counts as nothing to know: the proof then takes a made account out
 * of any bakery, which is the safe side, and an invitation's page keeps a reset's words.
 */
export function useLinkInfo(token: string): LinkInfo | undefined {
  const [info, setInfo] = useState<LinkInfo | undefined>(token ? undefined : NOTHING);
  useEffect(() => {
    if (!token) return;
    let live = true;
    endpoints
      .linkInfo(token)
      .then((answer) => {
        if (live) setInfo(answer);
      })
      .catch(() => {
        if (live) setInfo(NOTHING);
      });
    return () => {
      live = false;
    };
  }, [token]);
  return info;
}

/** «Panadería X creó esta cuenta para ti como Personal.» */
export function madeByText(madeBy: MadeBy): string {
  return `${madeBy.bakery} creó esta cuenta para ti como ${ROLE_LABELS_ES[madeBy.role].toLowerCase()}.`;
}

/**
 * The owner's choice on the reset form: stay in the bakery that made the account, or keep it for themselves
 * (the default: nobody is kept in a bakery without saying yes).
 */
export function BakeryChoice({
  madeBy,
  accept,
  onChange,
}: {
  madeBy: MadeBy;
  accept: boolean;
  onChange: (accept: boolean) => void;
}) {
  return (
    <fieldset className="space-y-2 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-stone-800">
      <legend className="px-1 font-semibold">{madeByText(madeBy)}</legend>
      <label className="flex items-start gap-2">
        <input type="radio" name="bakery-choice" className="mt-1" checked={!accept} onChange={() => onChange(false)} />
        <span>No, la cuenta es solo mía: sale de {madeBy.bakery}, que ya no verá mis datos.</span>
      </label>
      <label className="flex items-start gap-2">
        <input type="radio" name="bakery-choice" className="mt-1" checked={accept} onChange={() => onChange(true)} />
        <span>Sí, sigo en {madeBy.bakery} con ese rol.</span>
      </label>
    </fieldset>
  );
}
