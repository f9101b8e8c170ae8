import { describe, expect, it } from 'vitest';
import { setCustomAvatar } from '../../../src/domain/profile/custom-avatar';

const GOOD = 'https://cdn.example.com/avatars/me.png';

describe('setting a custom avatar', () => {
  it('spends the cost and applies the URL when the balance covers it', () => {
    expect(setCustomAvatar({ avatarUrl: GOOD, balance: 500, cost: 200 })).toEqual({
      ok: true,
      state: { avatarUrl: GOOD, spend: 200 },
      events: [],
    });
  });

  it('allows spending the whole balance', () => {
    expect(setCustomAvatar({ avatarUrl: GOOD, balance: 200, cost: 200 }).ok).toBe(true);
  });

  it('refuses a balance below the cost with "not enough points"', () => {
    const outcome = setCustomAvatar({ avatarUrl: GOOD, balance: 199, cost: 200 });
    expect(outcome.ok === false && [outcome.error.kind, outcome.error.message]).toEqual(['payment_required', 'not enough points']);
  });

  it('checks the URL before the balance', () => {
    const outcome = setCustomAvatar({ avatarUrl: 'http://x.example/a.png', balance: 0, cost: 200 });
    expect(outcome.ok === false && outcome.error.kind).toBe('invalid');
  });

  it.each([
    'https://cdn.example.com/a.png',
    'https://cdn.example.com/a.jpg',
    'https://cdn.example.com/a.jpeg',
    'https://cdn.example.com/a.gif',
    'https://cdn.example.com/a.webp',
    'https://cdn.example.com/A.PNG',
    'https://cdn.example.com/a.png?size=184',
    'https://cdn.example.com:8443/deep/path/a.webp#top',
  ])('accepts %s', (avatarUrl) => {
    expect(setCustomAvatar({ avatarUrl, balance: 1000, cost: 100 }).ok).toBe(true);
  });

  it.each([
    ['plain http', 'http://cdn.example.com/a.png'],
    ['another scheme', 'ftp://cdn.example.com/a.png'],
    ['a data URL', 'data:image/png;base64,AAAA'],
    ['not a URL', 'me.png'],
    ['an empty string', ''],
    ['another file type', 'https://cdn.example.com/a.svg'],
    ['no file type', 'https://cdn.example.com/avatar'],
    ['the type only in the query', 'https://cdn.example.com/avatar?f=a.png'],
    ['a type that only starts like an image', 'https://cdn.example.com/a.png.exe'],
    ['credentials in the URL', 'https://user:secret@cdn.example.com/a.png'],
    ['an overlong URL', `https://cdn.example.com/${'a'.repeat(2100)}.png`],
    ['a loopback address (the issue: Redis on this machine)', 'https://127.0.0.1:6379/x.png'],
    ['loopback spelt in hex', 'https://0x7f.1/x.png'],
    ['loopback spelt as one number', 'https://2130706433/x.png'],
    ['a private address', 'https://10.0.0.5/x.png'],
    ['a link-local (cloud metadata) address', 'https://169.254.169.254/x.png'],
    ['a public address literal', 'https://93.184.216.34/x.png'],
    ['IPv6 loopback', 'https://[::1]/x.png'],
    ['an IPv4-mapped IPv6 address', 'https://[::ffff:127.0.0.1]/x.png'],
    ['localhost', 'https://localhost/x.png'],
    ['localhost with a trailing dot', 'https://localhost./x.png'],
    ['a subdomain of localhost', 'https://cdn.localhost/x.png'],
    ['an mDNS name', 'https://printer.local/x.png'],
    ['an internal name', 'https://metadata.google.internal/x.png'],
    ['a single-label name', 'https://redis/x.png'],
  ])('refuses %s as invalid', (_, avatarUrl) => {
    const outcome = setCustomAvatar({ avatarUrl, balance: 1000, cost: 100 });
    expect(outcome.ok === false && outcome.error.kind).toBe('invalid');
  });
});
