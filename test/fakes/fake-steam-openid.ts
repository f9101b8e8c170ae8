import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { listenLocally, readForm, redirect, sendText, type LocalServer } from './local-http-server';

/**
 * Steam's OpenID 2.0 provider as the relying party sees it: checkid_setup answered at once with a
 * positive assertion (no login page), check_authentication answered in key-value form. Like Steam
 * it runs without associations, signing with a key only it knows (HMAC-SHA256), and it does not
 * remember nonces: replay protection is the relying party's job.
 */

// Written out here rather than imported from src so a wrong constant there cannot pass against this.
const NS = 'http://specs.openid.net/auth/2.0';
const IDENTIFIER_SELECT = 'http://specs.openid.net/auth/2.0/identifier_select';
const SIGNED = ['signed', 'op_endpoint', 'claimed_id', 'identity', 'return_to', 'response_nonce', 'assoc_handle'];

export interface AssertionOptions {
  /** When the provider issued the assertion (the response_nonce timestamp); now by default. */
  issuedAt?: Date;
}

export interface FakeSteamOpenId extends LocalServer {
  /** The provider endpoint, the value of STEAM_OPENID_URL (…/openid/login). */
  url: string;
  /** The account the next checkid_setup logs in; with none queued the user "cancels". */
  nextLogin(platformId: string): void;
  /** A signed positive assertion as the callback's query, for tests that tamper with or replay it. */
  assertionFor(platformId: string, returnTo: string, options?: AssertionOptions): URLSearchParams;
  /** How many check_authentication requests arrived. */
  readonly checkAuthenticationCount: number;
}

export async function startFakeSteamOpenId(): Promise<FakeSteamOpenId> {
  const key = randomBytes(32);
  const assocHandle = randomBytes(8).toString('hex');
  const pendingLogins: string[] = [];
  let checkAuthenticationCount = 0;
  let endpoint = '';

  const sign = (fields: URLSearchParams): string => {
    const names = (fields.get('openid.signed') ?? '').split(',');
    const form = names.map((name) => `${name}:${fields.get(`openid.${name}`) ?? ''}\n`).join('');
    return createHmac('sha256', key).update(form, 'utf8').digest('base64');
  };

  const assertionFor = (platformId: string, returnTo: string, options: AssertionOptions = {}): URLSearchParams => {
    const claimedId = `https://steamcommunity.com/openid/id/${platformId}`;
    const issuedAt = (options.issuedAt ?? new Date()).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const fields = new URLSearchParams({
      'openid.ns': NS,
      'openid.mode': 'id_res',
      'openid.op_endpoint': endpoint,
      'openid.claimed_id': claimedId,
      'openid.identity': claimedId,
      'openid.return_to': returnTo,
      'openid.response_nonce': `${issuedAt}${randomBytes(9).toString('base64url')}`,
      'openid.assoc_handle': assocHandle,
      'openid.signed': SIGNED.join(','),
    });
    fields.set('openid.sig', sign(fields));
    return fields;
  };

  const signatureHolds = (fields: URLSearchParams): boolean => {
    const given = Buffer.from(fields.get('openid.sig') ?? '', 'base64');
    const expected = Buffer.from(sign(fields), 'base64');
    const names = (fields.get('openid.signed') ?? '').split(',');
    return (
      fields.get('openid.assoc_handle') === assocHandle &&
      SIGNED.every((name) => names.includes(name)) &&
      given.length === expected.length &&
      timingSafeEqual(given, expected)
    );
  };

  const server = await listenLocally(async (request, response, url) => {
    if (url.pathname !== '/openid/login') return sendText(response, 404, 'Not Found');
    const fields = request.method === 'POST' ? await readForm(request) : url.searchParams;
    const mode = fields.get('openid.mode');

    if (mode === 'checkid_setup') {
      const returnTo = fields.get('openid.return_to');
      const realm = fields.get('openid.realm');
      const selectsIdentity =
        fields.get('openid.identity') === IDENTIFIER_SELECT && fields.get('openid.claimed_id') === IDENTIFIER_SELECT;
      if (fields.get('openid.ns') !== NS || !returnTo || !selectsIdentity || (realm && !returnTo.startsWith(realm))) {
        return sendText(response, 400, 'Invalid OpenID request');
      }
      const target = new URL(returnTo);
      const platformId = pendingLogins.shift();
      const answer =
        platformId === undefined
          ? new URLSearchParams({ 'openid.ns': NS, 'openid.mode': 'cancel' })
          : assertionFor(platformId, returnTo);
      for (const [name, value] of answer) target.searchParams.append(name, value);
      return redirect(response, target);
    }

    if (mode === 'check_authentication') {
      checkAuthenticationCount += 1;
      return sendText(response, 200, `ns:${NS}\nis_valid:${signatureHolds(fields)}\n`);
    }

    return sendText(response, 400, `ns:${NS}\nerror:Unsupported mode\n`);
  });
  endpoint = `${server.url}/openid/login`;

  return {
    url: endpoint,
    close: server.close,
    nextLogin: (platformId) => void pendingLogins.push(platformId),
    assertionFor,
    get checkAuthenticationCount() {
      return checkAuthenticationCount;
    },
  };
}
