import ipaddr from 'ipaddr.js';

/**
 * uwebsockets-express exposes the raw uWS peer text (`0000:...:ffff:7f00:0001`) as `req.ip` and
 * ignores express's `trust proxy`; the client address is derived here, once: the peer itself, or
 * the right-most untrusted hop of X-Forwarded-For when the peer is one of our proxies.
 */
export type AddressMatcher = (address: string) => boolean;

function normalise(text: string): string {
  try {
    const parsed = ipaddr.parse(text.trim());
    if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
      return (parsed as ipaddr.IPv6).toIPv4Address().toString();
    }
    return parsed.toString();
  } catch {
    return text.trim();
  }
}

export function trustedProxyMatcher(entries: string[]): AddressMatcher {
  const ranges = entries.map((entry) => (entry.includes('/') ? ipaddr.parseCIDR(entry) : ipaddr.parseCIDR(`${entry}/${entry.includes(':') ? 128 : 32}`)));
  return (address) => {
    if (ranges.length === 0) return false;
    try {
      const parsed = ipaddr.parse(address);
      return ranges.some(([range, bits]) => parsed.kind() === range.kind() && parsed.match(range, bits));
    } catch {
      return false;
    }
  };
}

export function clientAddress(peer: string, forwardedFor: string | undefined, isTrusted: AddressMatcher): string {
  const direct = normalise(peer);
  if (!forwardedFor || !isTrusted(direct)) return direct;
  const hops = forwardedFor.split(',').map(normalise).filter(Boolean);
  for (let i = hops.length - 1; i >= 0; i--) {
    if (!isTrusted(hops[i])) return hops[i];
  }
  return hops[0] ?? direct;
}
