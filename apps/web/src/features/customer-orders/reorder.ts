import type { ReorderAnswer } from '@hornada/domain/schemas/carts';
import { endSentence } from '@hornada/domain/text';

/** "A", "A y B", "A, B y C". */
export function spanishList(names: readonly string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} y ${names[names.length - 1]}`;
}

export interface ReorderToast {
  type: 'success' | 'warning';
  title?: string;
  message: string;
  duration?: number;
}

const one = (names: readonly string[], singular: string, plural: string) => (names.length === 1 ? singular : plural);

/**
 * What "Pedir de nuevo" tells the shopper (one toast, so that on a phone it covers as little of the cart as it
 * can): what the server added, what was already in the cart and kept on one line, what is no longer sold and
 * what did not fit.
 */
export function reorderToast(number: number, answer: Omit<ReorderAnswer, 'cart'>, maxLines: number): ReorderToast {
  const { added, merged, skipped, full } = answer;
  const lead =
    added.length > 0
      ? `Pusimos en tu carrito los productos del pedido #${number}, con los precios de hoy.`
      : `Tu carrito ya tenía los productos del pedido #${number}.`;
  const notes = [
    merged.length === 0
      ? ''
      : endSentence(
          `${spanishList(merged)} ya ${one(merged, 'estaba', 'estaban')} en tu carrito: no ${one(merged, 'lo', 'los')} repetimos, ` +
            `${one(merged, 'quedó', 'quedaron')} con la cantidad mayor`,
        ),
    skipped.length === 0
      ? ''
      : endSentence(`${spanishList(skipped)} ${one(skipped, 'ya no está disponible', 'ya no están disponibles')}`),
    full.length === 0
      ? ''
      : endSentence(
          `${spanishList(full)} no ${one(full, 'cupo', 'cupieron')}: tu carrito ya tiene ${maxLines} productos distintos`,
        ),
  ].filter(Boolean);
  if (notes.length === 0) return { type: 'success', message: lead };
  // Something the shopper did not ask for: said plainly, and left up long enough to read.
  return {
    type: skipped.length || full.length ? 'warning' : 'success',
    title: lead,
    message: notes.join(' '),
    duration: 10_000,
  };
}
