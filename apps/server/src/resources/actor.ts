import { IMPORT_REASONS, type ActorRef, type HistoryEntry, type SystemReason, type UserLine } from '@hornada/domain';
import type { Caller } from '../context';

/**
 * Who makes a write (style habit 13), passed explicitly to every write of the resource services:
 * - a user under its role's grants (`via` absent), or under one of its own lines (`via`: checkout,
 *   its own account);
 * - the system, for a reason the permission table names (packages/domain actors.ts);
 * - a payment gateway, by name;
 * - a guest holding a cart, by the name it gave and a hash of its session (never the session itself).
 */
export type Actor =
  | ({ kind: 'user'; via?: UserLine } & Caller)
  | { kind: 'system'; reason: SystemReason }
  | { kind: 'gateway'; gateway: string }
  | { kind: 'guest'; name: string; sessionHash?: string };

export type UserActor = Extract<Actor, { kind: 'user' }>;

/** The signed-in caller of a request as the actor of its writes (null: nobody signed in, a 401). */
export function asUser(caller: Caller | null, via?: UserLine): UserActor | null {
  if (!caller) return null;
  return via ? { kind: 'user', via, ...caller } : { kind: 'user', ...caller };
}

export const systemActor = (reason: SystemReason): Actor => ({ kind: 'system', reason });
export const gatewayActor = (gateway: string): Actor => ({ kind: 'gateway', gateway });
export const guestActor = (name: string, sessionHash?: string): Actor =>
  sessionHash ? { kind: 'guest', name, sessionHash } : { kind: 'guest', name };

/** The user behind an actor, when it is one. */
export function userOf(actor: Actor): UserActor | null {
  return actor.kind === 'user' ? actor : null;
}

/**
 * The actor's line in the permission table, when it writes under one rather than under a role's
 * grants: every actor but a user acting plainly under its role.
 */
export function lineRef(actor: Actor): ActorRef | null {
  switch (actor.kind) {
    case 'user':
      return actor.via ? { kind: 'user', via: actor.via } : null;
    case 'system':
      return { kind: 'system', reason: actor.reason };
    case 'gateway':
      return { kind: 'gateway' };
    case 'guest':
      return { kind: 'guest' };
  }
}

/** How a history entry names the actor: the user, or what the actor is and why. */
export function historyBy(actor: Actor): HistoryEntry['by'] {
  switch (actor.kind) {
    case 'user':
      return { uid: actor.uid, name: actor.name, role: actor.role };
    case 'system':
      return { uid: null, name: `Hornada (${actor.reason})`, role: 'system' };
    case 'gateway':
      return { uid: null, name: actor.gateway, role: 'gateway' };
    case 'guest':
      return { uid: null, name: actor.name, role: 'guest' };
  }
}

/** A write of an import (the demo seed): the import's own, or one it replays in its scope as someone else. */
export function isImport(actor: Actor, scope: { importing?: SystemReason }): boolean {
  return (actor.kind === 'system' && IMPORT_REASONS.includes(actor.reason)) || scope.importing !== undefined;
}
