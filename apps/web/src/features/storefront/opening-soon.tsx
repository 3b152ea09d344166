import { EmptyState } from '../../components/empty-state';

/** What a shop whose setup checklist lacks its minimum shows in place of its catalogue or cart. */
export function OpeningSoon() {
  return (
    <div className="mt-8">
      <EmptyState title="Abrimos pronto">
        Estamos preparando nuestra tienda en línea. Vuelve en unos días para hacer tu pedido.
      </EmptyState>
    </div>
  );
}
