/** The back office's button looks, as class names (for `<button>`, `<Link>` and Radix triggers alike). */

// Colours only (`transition-colors`): a button enabled on a page being read must not fade in from its disabled
// opacity through unreadable contrast (axe caught it on the delivery page's "Asignar 1 pedido").
const base =
  'inline-flex items-center justify-center gap-2 rounded-lg font-semibold shadow-sm transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 disabled:cursor-not-allowed disabled:opacity-60';

export const buttonClass = `${base} bg-amber-900 px-4 py-2.5 text-white hover:bg-amber-800 focus-visible:outline-amber-900`;

export const secondaryButtonClass = `${base} border border-stone-300 bg-white px-3 py-2 font-medium text-stone-800 hover:bg-stone-50 focus-visible:outline-amber-900`;

export const dangerButtonClass = `${base} bg-red-700 px-4 py-2.5 text-white hover:bg-red-800 focus-visible:outline-red-700`;

/** A small square button with only an icon (give it an aria-label). */
export const iconButtonClass =
  'inline-flex size-9 items-center justify-center rounded-lg text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-amber-900 disabled:cursor-not-allowed disabled:opacity-40';
