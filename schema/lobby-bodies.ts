import * as v from 'valibot';
import { LobbyDetail, LobbyFormat, LobbyVotes, Team, TfClass } from './lobby';

/* Request and response bodies of the lobby routes (docs/design/CONTRACT.md "Request bodies"). Unknown fields are dropped. */

const UserId = v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be a positive integer'));
const Score = v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be 0 or more'));

export const LOBBY_NAME_MAX = 64;
export const LOBBY_CHAT_MAX = 500;

/** A lobby code in a path: letters and digits; anything else cannot name a lobby (404). */
export const LobbyCodeParams = v.object({ code: v.pipe(v.string(), v.regex(/^[A-Za-z0-9]{1,16}$/), v.toUpperCase()) });

export const LobbyCreateBody = v.object({
  format: v.optional(LobbyFormat),
  name: v.optional(v.pipe(v.string(), v.maxLength(LOBBY_NAME_MAX, `must be at most ${LOBBY_NAME_MAX} characters`))),
  /** 2 to 5 names; the format's default pool otherwise. */
  map_pool: v.optional(v.array(v.string())),
  region: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(64, 'must be at most 64 characters')))),
  /** One of the caller's server reservations; pins the lobby to it. */
  reservation_id: v.optional(v.nullable(v.pipe(v.number(), v.integer(), v.minValue(1, 'must be a positive integer')))),
});
export type LobbyCreateBody = v.InferOutput<typeof LobbyCreateBody>;

export const LobbyCreated = v.object({ code: v.string(), lobby: LobbyDetail });

export const VoteMapBody = v.object({ map: v.pipe(v.string(), v.minLength(1, 'is required')) });
export const PickSlotBody = v.object({
  team: Team,
  index: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(0, 'must be 0 or more')),
  /** A drafted teammate the captain moves; the caller by default. */
  user_id: v.optional(UserId),
});
export const SetClassBody = v.object({ class: TfClass });
export const ReportBody = v.object({ score_red: Score, score_blu: Score });
export const UserIdBody = v.object({ user_id: UserId });
export const SetCaptainBody = v.object({ user_id: UserId, team: v.optional(Team) });
/** Trimmed and checked for emptiness by the domain; the length limit is the specification's. */
export const ChatBody = v.object({
  message: v.pipe(v.string('is required'), v.maxLength(LOBBY_CHAT_MAX, `must be at most ${LOBBY_CHAT_MAX} characters`)),
});

export const VotesBody = v.object({ votes: LobbyVotes });
export const MyVoteBody = v.object({ map: v.nullable(v.string()) });
export const MatchIdBody = v.object({ match_id: v.number() });
