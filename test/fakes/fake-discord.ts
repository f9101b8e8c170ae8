import { createHash, randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { listenLocally, readForm, redirect, sendJson, sendText, type LocalServer } from './local-http-server';

/**
 * Discord's OAuth2 authorization code flow (with PKCE) and GET /users/@me, on Discord's own paths
 * so the configured URLs compose as the real ones do. The consent page is skipped: authorize
 * redirects at once, for whichever user was queued.
 */

export interface FakeDiscordUser {
  id: string;
  username: string;
  global_name?: string | null;
  avatar?: string | null;
}

export interface FakeDiscordOptions {
  clientId: string;
  clientSecret: string;
}

export interface FakeDiscord extends LocalServer {
  /** The origin; the three URLs below are what DISCORD_*_URL would hold. */
  url: string;
  authorizeUrl: string;
  tokenUrl: string;
  apiUrl: string;
  /** The user who approves the next authorization; with none queued the user denies it. */
  nextUser(user: FakeDiscordUser): void;
}

interface PendingCode {
  user: FakeDiscordUser;
  clientId: string;
  redirectUri: string;
  codeChallenge: string | null;
}

const TOKEN_LIFETIME_S = 604_800;

export async function startFakeDiscord(options: FakeDiscordOptions): Promise<FakeDiscord> {
  const queuedUsers: FakeDiscordUser[] = [];
  const codes = new Map<string, PendingCode>();
  const accessTokens = new Map<string, FakeDiscordUser>();
  const token = () => randomBytes(24).toString('base64url');

  const clientOf = (request: IncomingMessage, form: URLSearchParams): { id: string | null; secret: string | null } => {
    const basic = /^Basic (.+)$/i.exec(request.headers.authorization ?? '');
    if (basic) {
      const decoded = Buffer.from(basic[1], 'base64').toString('utf8');
      const colon = decoded.indexOf(':');
      return colon < 0 ? { id: null, secret: null } : { id: decoded.slice(0, colon), secret: decoded.slice(colon + 1) };
    }
    return { id: form.get('client_id'), secret: form.get('client_secret') };
  };

  const server = await listenLocally(async (request, response, url) => {
    if (request.method === 'GET' && url.pathname === '/oauth2/authorize') {
      const query = url.searchParams;
      const redirectUri = query.get('redirect_uri');
      const challengeMethod = query.get('code_challenge_method');
      if (query.get('client_id') !== options.clientId || !redirectUri || query.get('response_type') !== 'code') {
        return sendJson(response, 400, { error: 'invalid_request' });
      }
      if (challengeMethod !== null && challengeMethod !== 'S256') return sendJson(response, 400, { error: 'invalid_request' });
      const target = new URL(redirectUri);
      const state = query.get('state');
      const user = queuedUsers.shift();
      if (user === undefined) {
        target.searchParams.set('error', 'access_denied');
        target.searchParams.set('error_description', 'The resource owner or authorization server denied the request');
      } else {
        const code = token();
        codes.set(code, { user, clientId: options.clientId, redirectUri, codeChallenge: query.get('code_challenge') });
        target.searchParams.set('code', code);
      }
      if (state !== null) target.searchParams.set('state', state);
      return redirect(response, target);
    }

    if (request.method === 'POST' && url.pathname === '/api/oauth2/token') {
      const form = await readForm(request);
      const client = clientOf(request, form);
      if (client.id !== options.clientId || client.secret !== options.clientSecret) {
        return sendJson(response, 401, { error: 'invalid_client' });
      }
      if (form.get('grant_type') !== 'authorization_code') return sendJson(response, 400, { error: 'unsupported_grant_type' });
      const code = form.get('code') ?? '';
      const pending = codes.get(code);
      codes.delete(code); // single use, even when this attempt fails
      const verifier = form.get('code_verifier');
      const challengeMet =
        pending?.codeChallenge == null ||
        (verifier !== null && createHash('sha256').update(verifier).digest('base64url') === pending.codeChallenge);
      if (
        pending === undefined ||
        pending.clientId !== client.id ||
        pending.redirectUri !== form.get('redirect_uri') ||
        !challengeMet
      ) {
        return sendJson(response, 400, { error: 'invalid_grant' });
      }
      const accessToken = token();
      accessTokens.set(accessToken, pending.user);
      return sendJson(response, 200, {
        access_token: accessToken,
        token_type: 'Bearer',
        expires_in: TOKEN_LIFETIME_S,
        refresh_token: token(),
        scope: 'identify',
      });
    }

    if (request.method === 'GET' && url.pathname === '/api/users/@me') {
      const bearer = /^Bearer (.+)$/.exec(request.headers.authorization ?? '');
      const user = bearer ? accessTokens.get(bearer[1]) : undefined;
      if (user === undefined) return sendJson(response, 401, { message: '401: Unauthorized', code: 0 });
      return sendJson(response, 200, {
        id: user.id,
        username: user.username,
        discriminator: '0',
        global_name: user.global_name ?? null,
        avatar: user.avatar ?? null,
        public_flags: 0,
        flags: 0,
        locale: 'en-US',
        mfa_enabled: false,
      });
    }

    return sendText(response, 404, 'Not Found');
  });

  return {
    url: server.url,
    authorizeUrl: `${server.url}/oauth2/authorize`,
    tokenUrl: `${server.url}/api/oauth2/token`,
    apiUrl: `${server.url}/api`,
    close: server.close,
    nextUser: (user) => void queuedUsers.push(user),
  };
}
