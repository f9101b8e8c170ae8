/* Every live-store key and channel the lobby and party engines use, in one place. */

export const lobbyKey = (code: string): string => `lobby:${code}`;
/** user -> code of the one open lobby they are in; written in the same compare-and-set as the lobby. */
export const lobbyMemberKey = (userId: number): string => `lobby-member:${userId}`;
export const lobbyChatKey = (code: string): string => `lobby-chat:${code}`;
export const LOBBY_CHAT_SEQUENCE = 'lobby-chat-seq';
/** Sorted set of open lobby codes scored by creation time; closed ones are scored -1 and swept. */
export const OPEN_LOBBIES = 'lobbies:open';
/** Durable queue: a lobby is due when something changes with the clock alone (ready check, ready flag). */
export const LOBBY_DEADLINES = 'lobby-deadlines';
/** Durable queue: ended lobbies whose match could not be written yet, retried by the worker. */
export const UNRECORDED_MATCHES = 'lobby-unrecorded';

export const partyKey = (id: number): string => `party:${id}`;
export const partyMemberKey = (userId: number): string => `party-member:${userId}`;
/** user -> invites they received, as hints: the party document is the truth. */
export const partyInboxKey = (userId: number): string => `party-inbox:${userId}`;
/** invite -> party, so an answer finds the party (and a stranger answering gets 403, not 404). */
export const partyInviteKey = (inviteId: number): string => `party-invite:${inviteId}`;
export const PARTY_ID_SEQUENCE = 'party-id-seq';
export const PARTY_INVITE_SEQUENCE = 'party-invite-seq';

/** Changes (to a fresh random value) whenever a ban is given or lifted: see BanList. */
export const BAN_LIST_GENERATION = 'bans:generation';

/** Channel on which any instance asks every instance to drop a public-cache topic. */
export const PUBLIC_CACHE_CHANNEL = 'public-cache-invalidate';
