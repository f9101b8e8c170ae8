import type { UserPublic } from '../../../schema/user';

/**
 * Who runs a command, as the engine resolved it. `currentLobby` is the code of the open lobby
 * the user is in according to the engine's user -> lobby index (null when none).
 */
export type Actor = {
  id: number;
  profile: UserPublic;
  isAdmin: boolean;
  banned: boolean;
  currentLobby: string | null;
};
