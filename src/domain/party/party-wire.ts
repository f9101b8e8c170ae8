import * as v from 'valibot';
import { UserPublic } from '../../../schema/user';
import type { PartyState } from './party-state';

export const PartyInvite = v.object({
  id: v.pipe(v.number(), v.integer()),
  to_platform_id: v.string(),
  from_user_id: v.pipe(v.number(), v.integer()),
});
export type PartyInvite = v.InferOutput<typeof PartyInvite>;

/** The Party record of the specification, plus the optional `name` given at creation. */
export const Party = v.object({
  id: v.pipe(v.number(), v.integer()),
  code: v.string(),
  name: v.nullable(v.string()),
  leader_id: v.pipe(v.number(), v.integer()),
  members: v.array(UserPublic),
  invites: v.array(PartyInvite),
});
export type Party = v.InferOutput<typeof Party>;

/** GET /api/parties/me */
export const PartyMeResponse = v.object({ party: v.nullable(Party) });
export type PartyMeResponse = v.InferOutput<typeof PartyMeResponse>;

export const partyView = (state: PartyState): Party => ({
  id: state.id,
  code: state.code,
  name: state.name,
  leader_id: state.leaderId,
  members: state.members.map((m) => ({ ...m })),
  invites: state.invites.map((i) => ({ id: i.id, to_platform_id: i.toPlatformId, from_user_id: i.fromUserId })),
});
