import { describe, expect, it } from 'vitest';
import {
  decideAccess,
  type AccessUser,
  type ResolvedCredential,
  type RouteAccess,
} from '../../../src/domain/keys/key-access';

const plain: AccessUser = { id: 1, isAdmin: false, premiumActive: false };
const premium: AccessUser = { id: 2, isAdmin: false, premiumActive: true };
const admin: AccessUser = { id: 3, isAdmin: true, premiumActive: false };

const credentials = {
  none: { kind: 'none' },
  badKey: { kind: 'bad_key' },
  sessionPlain: { kind: 'session', user: plain },
  sessionPremium: { kind: 'session', user: premium },
  sessionAdmin: { kind: 'session', user: admin },
  premiumKey: { kind: 'key', keyKind: 'premium', revoked: false, user: premium },
  premiumKeyLapsed: { kind: 'key', keyKind: 'premium', revoked: false, user: plain },
  premiumKeyRevoked: { kind: 'key', keyKind: 'premium', revoked: true, user: premium },
  adminKey: { kind: 'key', keyKind: 'admin', revoked: false, user: admin },
  adminKeyNotAdmin: { kind: 'key', keyKind: 'admin', revoked: false, user: plain },
  adminKeyRevoked: { kind: 'key', keyKind: 'admin', revoked: true, user: admin },
  pluginValid: { kind: 'plugin', valid: true },
  pluginWrong: { kind: 'plugin', valid: false },
} satisfies Record<string, ResolvedCredential>;
type CredentialName = keyof typeof credentials;
const columns = Object.keys(credentials) as CredentialName[];

const routes = {
  'session only': { accepts: ['session'], role: 'any' },
  'session only, premium role': { accepts: ['session'], role: 'premium' },
  'session or premium key': { accepts: ['session', 'premium'], role: 'any' },
  'session or premium key, premium role': { accepts: ['session', 'premium'], role: 'premium' },
  'session or either key': { accepts: ['session', 'premium', 'admin'], role: 'any' },
  'admin key only, admin role': { accepts: ['admin'], role: 'admin' },
  'session or admin key, admin role': { accepts: ['session', 'admin'], role: 'admin' },
  'plugin only': { accepts: ['plugin'], role: 'any' },
  public: { accepts: [], role: 'any' },
} satisfies Record<string, RouteAccess>;

// One row per route, one column per credential, in the order of `credentials` above.
//                                             none bad  sPl  sPr  sAd  pk   pkL  pkR  ak   akN  akR  plg  plW
const expected: Record<keyof typeof routes, number[]> = {
  'session only':                             [401, 401, 200, 200, 200, 401, 401, 401, 401, 401, 401, 401, 401],
  'session only, premium role':               [401, 401, 403, 200, 403, 401, 401, 401, 401, 401, 401, 401, 401],
  'session or premium key':                   [401, 401, 200, 200, 200, 200, 403, 401, 403, 403, 401, 401, 401],
  'session or premium key, premium role':     [401, 401, 403, 200, 403, 200, 403, 401, 403, 403, 401, 401, 401],
  'session or either key':                    [401, 401, 200, 200, 200, 200, 403, 401, 200, 403, 401, 401, 401],
  'admin key only, admin role':               [401, 401, 401, 401, 401, 403, 403, 401, 200, 403, 401, 401, 401],
  'session or admin key, admin role':         [401, 401, 403, 403, 200, 403, 403, 401, 200, 403, 401, 401, 401],
  'plugin only':                              [401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 401, 200, 401],
  public:                                     [200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200],
};

const statusOf = (route: RouteAccess, presented: ResolvedCredential | ResolvedCredential[]) => {
  const decision = decideAccess(route, presented);
  return decision.allow ? 200 : decision.status;
};

const cases = Object.entries(expected).flatMap(([routeName, statuses]) =>
  columns.map((credential, i) => ({ routeName, credential, status: statuses[i] })),
);

describe('who gets through a route, one credential at a time', () => {
  it.each(cases)('$routeName with $credential answers $status', ({ routeName, credential, status }) => {
    expect(statusOf(routes[routeName as keyof typeof routes], credentials[credential])).toBe(status);
  });
});

describe('who gets through a route, several credentials at once', () => {
  it.each([
    ['a key on a route without keys is ignored beside a valid session', 'session only', ['premiumKey', 'sessionPlain'], 200],
    ['a bad key on a route without keys is ignored beside a valid session', 'session only', ['badKey', 'sessionPlain'], 200],
    ['a bad key on a key route is not rescued by a valid session', 'session or premium key', ['badKey', 'sessionPremium'], 401],
    ['a revoked key on a key route is not rescued by a valid session', 'session or premium key', ['premiumKeyRevoked', 'sessionPremium'], 401],
    ['a lapsed key on a key route is not rescued by an admin session', 'session or admin key, admin role', ['premiumKeyLapsed', 'sessionAdmin'], 403],
    ['a valid key decides even beside a session that would fail the role', 'session or premium key, premium role', ['sessionPlain', 'premiumKey'], 200],
    ['a session on a plugin route does not stand in for a wrong secret', 'plugin only', ['sessionAdmin', 'pluginWrong'], 401],
    ['a plugin secret on a session route is ignored beside a session', 'session only', ['pluginValid', 'sessionPlain'], 200],
    ['nothing at all', 'session or premium key', [], 401],
    ['only placeholders for nothing', 'session only', ['none', 'none'], 401],
  ] as const)('%s', (_, routeName, names, status) => {
    expect(statusOf(routes[routeName], names.map((n) => credentials[n]))).toBe(status);
  });
});

describe('what an access decision carries', () => {
  it('names the credential used and its account when allowed', () => {
    expect(decideAccess(routes['session or premium key'], credentials.premiumKey)).toEqual({
      allow: true,
      via: 'premium',
      user: premium,
    });
  });

  it('names no account for the plugin', () => {
    expect(decideAccess(routes['plugin only'], credentials.pluginValid)).toEqual({ allow: true, via: 'plugin', user: null });
  });

  it('says login is required when a session route gets nothing', () => {
    expect(decideAccess(routes['session only'], credentials.none)).toEqual({ allow: false, status: 401, error: 'login required' });
  });

  it('says the API key is missing when a key-only route gets nothing usable', () => {
    expect(decideAccess(routes['admin key only, admin role'], credentials.sessionAdmin)).toEqual({
      allow: false,
      status: 401,
      error: 'missing or invalid API key',
    });
  });

  it('says premium has lapsed for a lapsed premium key', () => {
    const decision = decideAccess(routes['session or premium key'], credentials.premiumKeyLapsed);
    expect(decision.allow === false && decision.error).toMatch(/lapsed/);
  });
});
