import type { EmSource } from '../db/orm';
import { DomainError } from '../domain/domain-error';
import { setCustomAvatar, type CustomAvatarChange } from '../domain/profile/custom-avatar';
import { setProfileMakeover, type MakeoverChange, type MakeoverInput, type OwnedReward } from '../domain/profile/profile-makeover';

/**
 * What profile changes need from the points system. Points arrive with their own issue; until
 * then `emptyPointsShop` stands in: an empty wallet and no owned rewards, so the routes already
 * answer 400/402/404 by the domain rules. The points issue replaces it with a real shop
 * (IdentityRoutersInput.shop).
 */
export interface PointsShop {
  /** The price of a custom avatar, in points (configuration). */
  readonly customAvatarCost: number;
  balance(userId: number): Promise<number>;
  ownedRewards(userId: number): Promise<OwnedReward[]>;
  /** Spends and applies in one transaction; false when the balance no longer covers it. */
  buyCustomAvatar(userId: number, change: CustomAvatarChange): Promise<boolean>;
  applyMakeover(userId: number, change: MakeoverChange): Promise<void>;
}

/** Until points exist nothing can be owned, so the only makeover that passes the rules clears a field. */
export function emptyPointsShop(db: EmSource): PointsShop {
  return {
    customAvatarCost: 500,
    balance: async () => 0,
    ownedRewards: async () => [],
    buyCustomAvatar: async () => false,
    applyMakeover: async (userId, change) => {
      const fields: Array<[string, string | null | undefined]> = [
        ['name_color', change.nameColor],
        ['profile_frame', change.profileFrame],
      ];
      const present = fields.filter(([, value]) => value !== undefined);
      if (present.length === 0) return;
      const sql = `update users set ${present.map(([column]) => `${column} = ?`).join(', ')} where id = ?`;
      await db.em().execute(sql, [...present.map(([, value]) => value ?? null), userId]);
    },
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
