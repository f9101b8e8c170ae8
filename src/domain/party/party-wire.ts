import type { Party } from '../../../schema/party';
import type { PartyState } from './party-state';

export { Party, PartyInvite } from '../../../schema/party';

export const partyView = (state: PartyState): Party => ({
  id: state.id,
  code: state.code,
  name: state.name,
  leader_id: state.leaderId,
  members: state.members.map((m) => ({ ...m })),
  invites: state.invites.map((i) => ({ id: i.id, to_platform_id: i.toPlatformId, from_user_id: i.fromUserId })),
});
