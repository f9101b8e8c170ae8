import { fail, invalid, notFound, succeed, type Outcome } from '../domain-error';

export interface MakeoverInput {
  /** Absent: leave as is; null: clear; a number: apply that owned reward. */
  nameColorRewardId?: number | null;
  profileFrameRewardId?: number | null;
}

export interface OwnedReward {
  id: number;
  kind: string;
  value: string;
}

/** Only the fields present are to be written; null clears the field. */
export interface MakeoverChange {
  nameColor?: string | null;
  profileFrame?: string | null;
}

type Resolved = { ok: true; value: string | null } | { ok: false };

function resolve(rewardId: number | null, kind: string, owned: readonly OwnedReward[]): Resolved {
  if (rewardId === null) return { ok: true, value: null };
  // A reward of another kind counts as not owned for this field: a frame cannot be a name colour.
  const reward = owned.find((r) => r.id === rewardId && r.kind === kind);
  return reward ? { ok: true, value: reward.value } : { ok: false };
}

export function setProfileMakeover(
  input: MakeoverInput,
  ownedRewards: readonly OwnedReward[],
): Outcome<MakeoverChange, never> {
  const { nameColorRewardId, profileFrameRewardId } = input;
  if (nameColorRewardId === undefined && profileFrameRewardId === undefined) {
    return fail(invalid('give name_color_reward_id, profile_frame_reward_id or both'));
  }

  const change: MakeoverChange = {};
  if (nameColorRewardId !== undefined) {
    const color = resolve(nameColorRewardId, 'name_color', ownedRewards);
    if (!color.ok) return fail(notFound('reward not owned'));
    change.nameColor = color.value;
  }
  if (profileFrameRewardId !== undefined) {
    const frame = resolve(profileFrameRewardId, 'profile_frame', ownedRewards);
    if (!frame.ok) return fail(notFound('reward not owned'));
    change.profileFrame = frame.value;
  }
  return succeed(change);
}
