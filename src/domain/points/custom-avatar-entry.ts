import type { CustomAvatarChange } from '../profile/custom-avatar';
import type { LedgerEntry } from './ledger-entry';

/** The spend of a custom avatar purchase; `purchaseId` is unique per purchase (avatars can be bought again). */
export function customAvatarEntry(userId: number, change: CustomAvatarChange, purchaseId: string): LedgerEntry {
  return {
    userId,
    amount: -change.spend,
    kind: 'custom_avatar',
    reason: 'custom avatar',
    actorId: userId,
    sourceKey: `custom_avatar:${purchaseId}`,
  };
}
