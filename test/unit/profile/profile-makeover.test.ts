import { describe, expect, it } from 'vitest';
import { setProfileMakeover, type OwnedReward } from '../../../src/domain/profile/profile-makeover';

const owned: OwnedReward[] = [
  { id: 1, kind: 'name_color', value: '#ff8800' },
  { id: 2, kind: 'profile_frame', value: 'gold' },
  { id: 3, kind: 'badge', value: 'veteran' },
];

const changeOf = (outcome: ReturnType<typeof setProfileMakeover>) => (outcome.ok ? outcome.state : outcome.error.kind);

describe('a profile makeover', () => {
  it('applies an owned name colour and leaves the frame alone', () => {
    expect(changeOf(setProfileMakeover({ nameColorRewardId: 1 }, owned))).toEqual({ nameColor: '#ff8800' });
  });

  it('applies an owned profile frame and leaves the colour alone', () => {
    expect(changeOf(setProfileMakeover({ profileFrameRewardId: 2 }, owned))).toEqual({ profileFrame: 'gold' });
  });

  it('applies both at once', () => {
    expect(changeOf(setProfileMakeover({ nameColorRewardId: 1, profileFrameRewardId: 2 }, owned))).toEqual({
      nameColor: '#ff8800',
      profileFrame: 'gold',
    });
  });

  it('clears a field given as null, without needing any reward', () => {
    expect(changeOf(setProfileMakeover({ nameColorRewardId: null, profileFrameRewardId: null }, []))).toEqual({
      nameColor: null,
      profileFrame: null,
    });
  });

  it('can set one field and clear the other', () => {
    expect(changeOf(setProfileMakeover({ nameColorRewardId: null, profileFrameRewardId: 2 }, owned))).toEqual({
      nameColor: null,
      profileFrame: 'gold',
    });
  });

  it('refuses a body with neither field as invalid', () => {
    expect(changeOf(setProfileMakeover({}, owned))).toBe('invalid');
  });

  it.each([
    ['a name colour not owned', { nameColorRewardId: 99 }],
    ['a profile frame not owned', { profileFrameRewardId: 99 }],
    ['a frame reward used as a name colour', { nameColorRewardId: 2 }],
    ['a name colour reward used as a frame', { profileFrameRewardId: 1 }],
    ['a reward of another kind', { nameColorRewardId: 3 }],
    ['one owned and one not', { nameColorRewardId: 1, profileFrameRewardId: 99 }],
  ])('refuses %s with "reward not owned"', (_, input) => {
    const outcome = setProfileMakeover(input, owned);
    expect(outcome.ok === false && [outcome.error.kind, outcome.error.message]).toEqual(['not_found', 'reward not owned']);
  });
});
