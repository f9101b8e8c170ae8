import type { UserRecord } from '../db/user-record';
import { toUserPublic } from '../db/user-record';
import type { Actor } from '../domain/lobby';
import type { Caller } from '../identity/caller';
import type { BanLookup } from './engine-ports';
import { UnauthorizedError } from './engine-errors';

/** The user behind a caller, or 401: every lobby and party change needs one. */
export function requireUser(caller: Caller): UserRecord {
  if (caller.user === null) throw new UnauthorizedError();
  return caller.user;
}

export function actorOf(user: UserRecord, currentLobby: string | null, banned: boolean): Actor {
  return { id: user.id, profile: toUserPublic(user), isAdmin: user.isAdmin, banned, currentLobby };
}

/** The engine itself (deadlines, recording the match); it is in no lobby and passes every rule that asks. */
export const SYSTEM_ACTOR: Actor = {
  id: 0,
  profile: { id: 0, platform_id: '', username: 'system', avatar_url: null, elo: 0, name_color: null, profile_frame: null },
  isAdmin: true,
  banned: false,
  currentLobby: null,
};

/** Whether a user is banned now. Asked only by the commands whose rules look at it (create, join, chat). */
export function banCheck(bans: BanLookup, clock: () => number): (userId: number) => Promise<boolean> {
  return async (userId) => (await bans.activeBan(userId, new Date(clock()))) !== null;
}
