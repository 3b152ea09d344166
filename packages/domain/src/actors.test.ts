import { describe, expect, it } from 'vitest';
import { actorFields, GATEWAY_LINE, SYSTEM_REASONS, type ActorRef, type WriteAction } from './actors';
import { CAPABILITIES, CAPABILITY_NAMES } from './capabilities';
import { can, RESOURCE_NAMES } from './policy';
import { ROLES } from './roles';

const ACTIONS: WriteAction[] = ['create', 'update', 'delete'];

/** Every (resource, action) an actor's line reaches. */
function reach(actor: ActorRef): string[] {
  return RESOURCE_NAMES.flatMap((r) => ACTIONS.filter((a) => actorFields(actor, r, a)).map((a) => `${r}:${a}`));
}

describe('the actors of the permission table', () => {
  it('lets a gateway move an order’s payment and nothing else', () => {
    expect(reach({ kind: 'gateway' })).toEqual(['orders:update']);
    expect(GATEWAY_LINE.orders?.update).toEqual(['paymentStatus', 'payment', 'refundsDue']);
  });

  it('lets a guest place an order and nothing else', () => {
    expect(reach({ kind: 'guest' })).toEqual(['orders:create']);
    expect(actorFields({ kind: 'guest' }, 'orders', 'create')).not.toContain('status');
  });

  it('gives the system a line for each reason, never a delete, accounts only to identity, stock only to production, the address only to geocoding', () => {
    for (const reason of SYSTEM_REASONS) {
      const lines = reach({ kind: 'system', reason });
      expect(lines.length, reason).toBeGreaterThan(0);
      expect(
        lines.some((l) => l.endsWith(':delete')),
        reason,
      ).toBe(false);
      if (reason === 'payment-abandoned') expect(lines).toEqual(['orders:update']);
      else if (reason === 'standing-orders') expect(lines).toEqual(['orders:create']);
      else if (reason === 'join-orders')
        expect(actorFields({ kind: 'system', reason }, 'orders', 'update')).toEqual(['customerId']);
      else if (reason === 'production')
        expect(actorFields({ kind: 'system', reason }, 'ingredients', 'update')).toEqual(['stock']);
      else if (reason === 'geocoding') {
        expect(lines).toEqual(['orders:update']);
        expect(actorFields({ kind: 'system', reason }, 'orders', 'update')).toEqual(['address']);
      } else if (reason !== 'seed')
        expect(
          lines.every((l) => l.startsWith('users:')),
          reason,
        ).toBe(true);
    }
    expect(reach({ kind: 'system', reason: 'seed' })).not.toContain('users:create');
  });

  it('lets a user edit only its profile under `account`, and check out under `checkout`', () => {
    expect(actorFields({ kind: 'user', via: 'account' }, 'users', 'update')).toEqual(['name', 'phone', 'addresses']);
    expect(reach({ kind: 'user', via: 'checkout' })).toEqual(['orders:create']);
  });
});

describe('capabilities', () => {
  it('answers can(role, capability) from the table, for every role and capability', () => {
    for (const capability of CAPABILITY_NAMES) {
      for (const role of ROLES) {
        expect(can(role, capability), `${role} ${capability}`).toBe(
          (CAPABILITIES[capability] as readonly string[]).includes(role),
        );
      }
    }
  });

  it('keeps can(role, resource, action) for the resource table', () => {
    expect(can(ROLES[0], 'products', 'create')).toBe(true);
  });
});
