import { DomainError, fail, invalid, succeed, type Outcome } from '../domain-error';

const IMAGE_PATH = /\.(png|jpe?g|gif|webp)$/i;
export const MAX_AVATAR_URL_LENGTH = 2048;

export interface SetCustomAvatarInput {
  avatarUrl: string;
  /** The caller's points balance now, and the configured price of a custom avatar. */
  balance: number;
  cost: number;
}

/** What the engine applies: the new avatar, and the points to take from the wallet for it. */
export interface CustomAvatarChange {
  avatarUrl: string;
  spend: number;
}

/**
 * Only https, so the site never embeds mixed content; the image type is read from the path so a
 * query string (CDN sizing, cache busting) does not get in the way. Credentials in the URL would
 * be shown to everyone who sees the avatar, so they are refused.
 */
export function isAcceptableAvatarUrl(candidate: string): boolean {
  if (candidate.length > MAX_AVATAR_URL_LENGTH || !URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  return url.protocol === 'https:' && url.username === '' && url.password === '' && IMAGE_PATH.test(url.pathname);
}

export function setCustomAvatar(input: SetCustomAvatarInput): Outcome<CustomAvatarChange, never> {
  if (!isAcceptableAvatarUrl(input.avatarUrl)) {
    return fail(invalid('avatar_url must be an https URL of a .png, .jpg, .jpeg, .gif or .webp image'));
  }
  if (input.balance < input.cost) return fail(new DomainError('payment_required', 'not enough points'));
  return succeed({ avatarUrl: input.avatarUrl, spend: input.cost });
}
