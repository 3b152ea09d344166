/** Whether a product or collection shows in the shop. */
export function ActiveChip({ active }: { active: boolean }) {
  return active ? (
    <span className="inline-flex rounded-full bg-emerald-100 px-2 py-0.5 text-xs font-semibold text-emerald-900">
      Activo
    </span>
  ) : (
    <span className="inline-flex rounded-full bg-stone-200 px-2 py-0.5 text-xs font-semibold text-stone-800">
      Inactivo
    </span>
  );
}
