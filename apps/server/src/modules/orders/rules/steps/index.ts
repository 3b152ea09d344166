// The steps of an order's update, in the order they run (the order of their history entries too): each reads
// the update as the ones before left it and returns what it decides (docs/design.md §5).
import type { Step } from '../order-update';
import { changeFulfillment, lockContent } from './content';
import { moveDay } from './day';
import { logTheRest } from './history';
import { repriceLines } from './lines';
import { changePaymentMethod, movePayment } from './payment';
import { checkPeople } from './people';
import { placeAddress } from './place';
import { recordRefund, settleRefundsDue } from './refunds';
import { checkFieldMoments, moveStatus } from './status';

export { assertNewOrderMoments } from './status';

export const UPDATE_STEPS: readonly { name: string; run: Step }[] = [
  { name: 'lock-content', run: lockContent },
  { name: 'status', run: moveStatus },
  { name: 'field-moments', run: checkFieldMoments },
  { name: 'people', run: checkPeople },
  { name: 'payment-method', run: changePaymentMethod },
  { name: 'payment', run: movePayment },
  { name: 'refund', run: recordRefund },
  { name: 'refunds-due', run: settleRefundsDue },
  { name: 'day-and-window', run: moveDay },
  { name: 'fulfillment', run: changeFulfillment },
  { name: 'place', run: placeAddress },
  { name: 'lines-and-amounts', run: repriceLines },
  { name: 'history-of-the-rest', run: logTheRest },
];
