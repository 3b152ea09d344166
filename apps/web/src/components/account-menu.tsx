import ChevronDown from 'lucide-react/icons/chevron-down';
import LogOut from 'lucide-react/icons/log-out';
import UserRound from 'lucide-react/icons/user-round';
import { useEffect, useId, useRef, useState } from 'react';
import { Link } from 'react-router';

/** The account menu (docs/product.md §2): the first word of the user's name, 'Mi Cuenta' and 'Cerrar Sesión'. */
export function AccountMenu({
  label,
  accountHref,
  onLogout,
}: {
  label: string;
  accountHref: string;
  onLogout: () => void;
}) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const root = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointerDown = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onScroll = () => setOpen(false);
    document.addEventListener('pointerdown', onPointerDown);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      document.removeEventListener('pointerdown', onPointerDown);
      window.removeEventListener('scroll', onScroll);
    };
  }, [open]);

  const items = () => [
    ...(root.current?.querySelectorAll<HTMLElement>(`#${CSS.escape(panelId)} a, #${CSS.escape(panelId)} button`) ?? []),
  ];

  return (
    <div
      ref={root}
      className="relative"
      onBlur={(e) => {
        if (!root.current?.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.preventDefault();
          setOpen(false);
          button.current?.focus();
        } else if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
          e.preventDefault();
          if (!open) setOpen(true);
          requestAnimationFrame(() => {
            const all = items();
            const at = all.indexOf(document.activeElement as HTMLElement);
            const next = e.key === 'ArrowDown' ? at + 1 : at <= 0 ? all.length - 1 : at - 1;
            all[next % all.length]?.focus();
          });
        }
      }}
    >
      <button
        ref={button}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpen((was) => !was)}
        className="flex max-w-[6.5rem] items-center gap-1 rounded-md sm:max-w-[9rem] px-2 py-2 font-medium hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-amber-200"
      >
        <UserRound className="hidden size-5 shrink-0 sm:block" aria-hidden="true" />
        <span className="truncate">{label}</span>
        <ChevronDown
          className={`size-4 shrink-0 transition-transform ${open ? 'rotate-180' : ''}`}
          aria-hidden="true"
        />
      </button>
      <div
        id={panelId}
        hidden={!open}
        className="absolute right-0 top-full z-40 mt-1 w-48 overflow-hidden rounded-lg border border-stone-200 bg-white py-1 text-stone-900 shadow-xl"
      >
        <Link
          to={accountHref}
          onClick={() => setOpen(false)}
          className="flex items-center gap-2 px-4 py-2.5 hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-none"
        >
          <UserRound className="size-4" aria-hidden="true" />
          Mi Cuenta
        </Link>
        <button
          type="button"
          onClick={() => {
            setOpen(false);
            onLogout();
          }}
          className="flex w-full items-center gap-2 px-4 py-2.5 text-left hover:bg-amber-50 focus-visible:bg-amber-50 focus-visible:outline-none"
        >
          <LogOut className="size-4" aria-hidden="true" />
          Cerrar Sesión
        </button>
      </div>
    </div>
  );
}
