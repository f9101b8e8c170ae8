import type { UserRecord } from '../db/user-record';

/**
 * Who is calling, as the credential check resolved it for one request or socket. Handlers receive
 * this; the lobby and party engines turn `user` into their domain actor.
 */
export type Caller =
  | { kind: 'anonymous'; user: null }
  | { kind: 'session'; user: UserRecord; sessionId: string }
  | { kind: 'key'; keyKind: 'premium' | 'admin'; keyId: number; user: UserRecord }
  | { kind: 'plugin'; user: null };

export type AuthenticatedCaller = Extract<Caller, { user: UserRecord }>;

export const ANONYMOUS: Caller = { kind: 'anonymous', user: null };

/** The account behind a caller that a route's credential check already required. */
export function userOf(caller: Caller): AuthenticatedCaller['user'] {
  if (!caller.user) throw new Error(`a ${caller.kind} caller reached a route that needs an account`);
  return caller.user;
}
