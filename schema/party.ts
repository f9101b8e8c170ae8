import * as v from 'valibot';
import { UserPublic } from './user';

const Int = v.pipe(v.number(), v.integer());

export const PartyInvite = v.object({ id: Int, to_platform_id: v.string(), from_user_id: Int });

/** The Party record of the specification, plus the optional `name` given at creation. */
export const Party = v.object({
  id: Int,
  code: v.string(),
  name: v.nullable(v.string()),
  leader_id: Int,
  members: v.array(UserPublic),
  invites: v.array(PartyInvite),
});
export type Party = v.InferOutput<typeof Party>;

/** An invite the caller received and may accept or decline. */
export const ReceivedInvite = v.object({ id: Int, party_id: Int, party_code: v.string(), from_user_id: Int });
export type ReceivedInvite = v.InferOutput<typeof ReceivedInvite>;

/** GET /api/parties/me: `party` as specified; `received_invites` is added so an invitee can answer. */
export const PartyMeBody = v.object({ party: v.nullable(Party), received_invites: v.array(ReceivedInvite) });
export type PartyMeBody = v.InferOutput<typeof PartyMeBody>;

export const PARTY_NAME_MAX = 32;

export const PartyCreateBody = v.object({
  name: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(PARTY_NAME_MAX, `must be at most ${PARTY_NAME_MAX} characters`)))),
});
export const PartyInviteBody = v.object({ to_platform_id: v.pipe(v.string('is required'), v.regex(/^\d{1,20}$/, 'must be a platform id')) });
export const PartyKickBody = v.object({
  user_id: v.pipe(v.number('must be a number'), v.integer('must be an integer'), v.minValue(1, 'must be a positive integer')),
});
export const PartyCreated = v.object({ code: v.string() });
export const InviteIdParams = v.object({ inviteId: v.pipe(v.string(), v.regex(/^\d{1,15}$/), v.transform(Number)) });
