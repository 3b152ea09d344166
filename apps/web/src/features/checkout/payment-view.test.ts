import { describe, expect, it } from 'vitest';
import { nextPoll, paymentView, PENDING_PATIENCE_MS, PENDING_POLL_MS } from './payment-view';

const online = { paymentMethod: 'online', status: 'pending' } as const;

describe("the payment-response page's view", () => {
  it('follows the payment the server reports, not the method of an order paid another way', () => {
    expect(paymentView({ ...online, paymentMethod: 'cash', paymentStatus: 'unpaid' }, 0)).toBe('offline');
    expect(paymentView({ ...online, status: 'confirmed', paymentStatus: 'paid' }, 0)).toBe('approved');
    expect(paymentView({ ...online, paymentStatus: 'failed' }, 0)).toBe('declined');
    expect(paymentView({ ...online, paymentStatus: 'pending' }, 0)).toBe('pending');
    expect(paymentView({ ...online, status: 'cancelled', paymentStatus: 'failed' }, 0)).toBe('closed');
  });

  it('stops waiting on screen after ten minutes pending, and asks less often then', () => {
    expect(paymentView({ ...online, paymentStatus: 'pending' }, PENDING_PATIENCE_MS - 1)).toBe('pending');
    expect(paymentView({ ...online, paymentStatus: 'pending' }, PENDING_PATIENCE_MS)).toBe('late');
    expect(nextPoll('pending', 'pending')).toBe(PENDING_POLL_MS);
    expect(nextPoll('late', 'pending')!).toBeGreaterThan(PENDING_POLL_MS);
  });

  it('stops asking once the answer is final', () => {
    expect(nextPoll('declined', 'pending')).toBeNull();
    expect(nextPoll('closed', 'cancelled')).toBeNull();
    expect(nextPoll('approved', 'delivered')).toBeNull();
    expect(nextPoll('approved', 'confirmed')).not.toBeNull();
  });
});
