import type { PointsRepository } from '../db/points-repository';
import { DomainError } from '../domain/domain-error';
import { setCustomAvatar, type CustomAvatarChange } from '../domain/profile/custom-avatar';
import { setProfileMakeover, type MakeoverChange, type MakeoverInput, type OwnedReward } from '../domain/profile/profile-makeover';

/** What profile changes need from the points system (src/db/points-repository.ts behind it). */
export interface PointsShop {
  /** The price of a custom avatar, in points (configuration). */
  readonly customAvatarCost: number;
  balance(userId: number): Promise<number>;
  ownedRewards(userId: number): Promise<OwnedReward[]>;
  /** Spends and applies in one transaction; false when the balance no longer covers it. */
  buyCustomAvatar(userId: number, change: CustomAvatarChange): Promise<boolean>;
  applyMakeover(userId: number, change: MakeoverChange): Promise<void>;
}

/** The shop over the points ledger; `onSpent` runs after a purchase moved a balance (leaderboard caches). */
export function pointsShop(points: PointsRepository, customAvatarCost: number, onSpent: () => void): PointsShop {
  return {
    customAvatarCost,
    balance: async (userId) => (await points.wallet(userId)).balance,
    ownedRewards: (userId) => points.ownedRewards(userId),
    buyCustomAvatar: async (userId, change) => {
      const bought = await points.buyCustomAvatar(userId, change);
      if (bought) onSpent();
      return bought;
    },
    applyMakeover: (userId, change) => points.applyMakeover(userId, change),
  };
}

const notEnoughPoints = () => new DomainError('payment_required', 'not enough points');

export async function buyCustomAvatar(shop: PointsShop, userId: number, avatarUrl: string): Promise<void> {
  const outcome = setCustomAvatar({ avatarUrl, balance: await shop.balance(userId), cost: shop.customAvatarCost });
  if (!outcome.ok) throw outcome.error;
  // The balance may have moved since it was read: the shop's own transaction has the last word.
  if (!(await shop.buyCustomAvatar(userId, outcome.state))) throw notEnoughPoints();
}

export async function applyProfileMakeover(shop: PointsShop, userId: number, input: MakeoverInput): Promise<void> {
  const outcome = setProfileMakeover(input, await shop.ownedRewards(userId));
  if (!outcome.ok) throw outcome.error;
  await shop.applyMakeover(userId, outcome.state);
}
