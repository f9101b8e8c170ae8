import type { UserPublic } from '../../../schema/user';
import { createParty } from '../../../src/domain/party/create-party';
import type { Outcome } from '../../../src/domain/domain-error';
import type { PartyState } from '../../../src/domain/party/party-state';

export const NOW = 1_700_000_000_000;

export const user = (id: number): UserPublic => ({
  id,
  platform_id: `7656119800000${String(id).padStart(4, '0')}`,
  username: `player${id}`,
  avatar_url: null,
  elo: 1000 + id,
  name_color: null,
  profile_frame: null,
});

export function stateOf<S>(outcome: Outcome<S, unknown>): S {
  if (!outcome.ok) throw new Error(`expected success, got ${outcome.error.kind}: ${outcome.error.message}`);
  return outcome.state;
}

export function errorOf(outcome: Outcome<unknown, unknown>) {
  if (outcome.ok) throw new Error('expected a refusal, got success');
  return { kind: outcome.error.kind, message: outcome.error.message };
}

/** A party led by user 1 with the given further members, in joining order. */
export function partyWith(...memberIds: number[]): PartyState {
  const base = stateOf(createParty({ id: 10, code: 'ABC234' }, { profile: user(1), currentParty: null, banned: false }, NOW));
  return { ...base, members: [user(1), ...memberIds.map(user)] };
}
