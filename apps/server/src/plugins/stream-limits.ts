import type { FastifyRequest } from 'fastify';
import { AppError } from '../lib/errors';

/**
 * Caps on the open change streams of one instance (design §3): a signed-in caller's streams count
 * against its account wherever they come from; a guest's against its address. Signed-in streams are
 * not counted by address, since a mobile carrier puts many phones behind one address.
 */
export class StreamLimits {
  private readonly open = new Map<string, number>();

  constructor(private readonly limits: { perUser: number; perAddress: number }) {}

  /**
   * Counts one more stream of the request's caller and returns what uncounts it (safe to call twice),
   * or throws a 429 when the caller already holds its limit.
   */
  acquire(req: FastifyRequest): () => void {
    const key = req.caller ? `u:${req.caller.uid}` : `ip:${req.ip}`;
    const max = req.caller ? this.limits.perUser : this.limits.perAddress;
    const count = this.open.get(key) ?? 0;
    if (count >= max) {
      const whose = req.caller ? 'for this account' : 'from this address';
      throw new AppError(
        429,
        'rate_limited',
        `Too many open change streams ${whose} (limit ${max}); close one (another tab or device) and retry`,
        undefined,
        { 'retry-after': '30' },
      );
    }
    this.open.set(key, count + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const left = (this.open.get(key) ?? 1) - 1;
      if (left > 0) this.open.set(key, left);
      else this.open.delete(key);
    };
  }
}
