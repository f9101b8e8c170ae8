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

// Names that only resolve inside a network (RFC 6761, 6762, 8375 and common private suffixes).
const LOCAL_NAME = /(^|\.)(localhost|local|localdomain|internal|intranet|lan|home|corp|home\.arpa)$/;
// WHATWG URL parsing already turned every IPv4 spelling (0x7f.1, 2130706433...) into dotted decimal.
const IPV4_LITERAL = /^\d+\.\d+\.\d+\.\d+$/;

/**
 * A host every visitor's browser may fetch from: a public DNS name. IP literals (loopback,
 * private, link-local, metadata addresses and all) and single-label or local names are refused,
 * so an avatar cannot point browsers, or anything that ever fetched it, into a private network.
 * The server itself never fetches the URL: browsers load it.
 */
export function isPublicHostName(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host.startsWith('[') || host.includes(':') || IPV4_LITERAL.test(host)) return false;
  return host.includes('.') && !LOCAL_NAME.test(host);
}

/**
 * Only https, so the site never embeds mixed content; the image type is read from the path so a
 * query string (CDN sizing, cache busting) does not get in the way. Credentials in the URL would
 * be shown to everyone who sees the avatar, so they are refused; so is any host that is not a
 * public name (isPublicHostName).
 */
export function isAcceptableAvatarUrl(candidate: string): boolean {
  if (candidate.length > MAX_AVATAR_URL_LENGTH || !URL.canParse(candidate)) return false;
  const url = new URL(candidate);
  return (
    url.protocol === 'https:' && url.username === '' && url.password === '' && isPublicHostName(url.hostname) && IMAGE_PATH.test(url.pathname)
  );
}

export function setCustomAvatar(input: SetCustomAvatarInput): Outcome<CustomAvatarChange, never> {
  if (!isAcceptableAvatarUrl(input.avatarUrl)) {
    return fail(invalid('avatar_url must be an https URL of a .png, .jpg, .jpeg, .gif or .webp image on a public host name (no IP addresses or local names)'));
  }
  if (input.balance < input.cost) return fail(new DomainError('payment_required', 'not enough points'));
  return succeed({ avatarUrl: input.avatarUrl, spend: input.cost });
}
