import { useEffect, useId, useRef } from 'react';
import { createRoot } from 'react-dom/client';
import { setSignOutGuard } from '../../lib/auth/sign-out-guard';
import { forgetAll, forgetRoutes, pendingActions } from './driver-queue';

/**
 * A driver signing out of a phone the bakery's drivers share: moves not yet sent are the
 * driver's to decide about (kept on the phone for their next sign-in, where nobody else reads or sends
 * them, or discarded), and the route kept for them (customers' names and addresses) leaves the phone.
 * The driver's screens load it (driver-app.tsx) and register it with the app's sign-out (lib/auth/sign-out-guard.ts).
 */

type Choice = 'keep' | 'discard' | 'stay';

const button =
  'inline-flex min-h-12 w-full items-center justify-center rounded-xl px-4 text-base font-semibold focus-visible:outline-3 focus-visible:outline-offset-2 focus-visible:outline-amber-900';

function PendingDialog({ count, onChoose }: { count: number; onChoose(choice: Choice): void }) {
  const ref = useRef<HTMLDialogElement>(null);
  const id = useId();
  useEffect(() => {
    ref.current?.showModal();
  }, []);
  const one = count === 1;
  const actions = one ? '1 acción pendiente' : `${count} acciones pendientes`;
  return (
    <dialog
      ref={ref}
      aria-labelledby={`${id}-title`}
      aria-describedby={`${id}-text`}
      // Escape keeps the driver signed in: nothing is lost by not choosing.
      onCancel={(e) => {
        e.preventDefault();
        onChoose('stay');
      }}
      className="m-auto w-[min(28rem,calc(100vw-2rem))] rounded-2xl bg-white p-5 text-stone-900 shadow-xl backdrop:bg-stone-900/50"
    >
      <h2 id={`${id}-title`} className="text-lg font-bold">
        Tienes {actions} de enviar
      </h2>
      <p id={`${id}-text`} className="mt-2 text-base text-stone-800">
        {one
          ? 'Se hizo sin señal y aún no llega a la panadería. Si cierras sesión y la guardas, queda en este teléfono solo para ti y se envía cuando vuelvas a entrar; otra persona que entre no la ve.'
          : 'Se hicieron sin señal y aún no llegan a la panadería. Si cierras sesión y las guardas, quedan en este teléfono solo para ti y se envían cuando vuelvas a entrar; otra persona que entre no las ve.'}
      </p>
      <div className="mt-4 space-y-2">
        <button type="button" className={`${button} bg-amber-900 text-white`} onClick={() => onChoose('stay')}>
          {one ? 'Seguir conectado para enviarla' : 'Seguir conectado para enviarlas'}
        </button>
        <button type="button" className={`${button} border border-stone-300 bg-white`} onClick={() => onChoose('keep')}>
          {one ? 'Cerrar sesión y guardarla' : 'Cerrar sesión y guardarlas'}
        </button>
        <button
          type="button"
          className={`${button} border border-red-300 bg-white text-red-800`}
          onClick={() => onChoose('discard')}
        >
          {one ? 'Cerrar sesión y descartarla' : 'Cerrar sesión y descartarlas'}
        </button>
      </div>
    </dialog>
  );
}

/** Asks what to do with `count` moves not sent; resolves with the driver's choice. */
function ask(count: number): Promise<Choice> {
  const host = document.createElement('div');
  document.body.append(host);
  const root = createRoot(host);
  return new Promise((resolve) => {
    root.render(
      <PendingDialog
        count={count}
        onChoose={(choice) => {
          root.unmount();
          host.remove();
          resolve(choice);
        }}
      />,
    );
  });
}

/**
 * Before a driver signs out: asks about moves not sent (if any) and forgets what this phone kept for
 * them. Resolves false when the driver stays signed in.
 */
export async function confirmDriverSignOut(uid: string): Promise<boolean> {
  const pending = await pendingActions(uid).catch(() => []);
  const choice = pending.length > 0 ? await ask(pending.length) : 'keep';
  if (choice === 'stay') return false;
  if (choice === 'discard') await forgetAll(uid).catch(() => undefined);
  else await forgetRoutes(uid).catch(() => undefined);
  return true;
}

// Registered as soon as a driver screen loads this module (driver-app.tsx), so sign-out needs no network.
setSignOutGuard(confirmDriverSignOut);
