import { CodeChallengeMethod, OAuth2Client, OAuth2RequestError, UnexpectedErrorResponseBodyError } from 'arctic';
import * as v from 'valibot';
import { ChatLinkError, type ChatLink, type ChatLinkConfig, type ChatUser } from './chat-link';

/**
 * Linking a chat-platform (Discord) account: authorization code flow with PKCE. arctic's Discord
 * class hard-codes discord.com, so the generic OAuth2Client is used with the configured endpoints.
 */

export { generateCodeVerifier, generateState } from 'arctic';
export { ChatLinkError, type ChatLink, type ChatLinkConfig, type ChatLinkFailure, type ChatUser } from './chat-link';

const SCOPES = ['identify'];
const DEFAULT_TIMEOUT_MS = 5_000;

const DiscordUserSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^\d+$/)),
  username: v.pipe(v.string(), v.minLength(1)),
  global_name: v.optional(v.nullable(v.string()), null),
});

export function createChatLink(config: ChatLinkConfig): ChatLink {
  const client = new OAuth2Client(config.clientId, config.clientSecret, config.redirectUri);
  const timeoutMs = config.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const meUrl = `${config.apiUrl.replace(/\/+$/, '')}/users/@me`;

  async function redeem(code: string, codeVerifier: string): Promise<string> {
    let tokens;
    try {
      tokens = await withDeadline(client.validateAuthorizationCode(config.tokenUrl, code, codeVerifier), timeoutMs);
    } catch (error) {
      const refused = error instanceof OAuth2RequestError || error instanceof UnexpectedErrorResponseBodyError;
      throw new ChatLinkError(refused ? 'rejected' : 'provider_unreachable', { cause: error });
    }
    try {
      return tokens.accessToken();
    } catch (error) {
      throw new ChatLinkError('bad_response', { cause: error });
    }
  }

  async function whoIs(accessToken: string): Promise<ChatUser> {
    let response: Response;
    try {
      response = await fetch(meUrl, {
        headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new ChatLinkError('provider_unreachable', { cause: error });
    }
    if (!response.ok) {
      await response.body?.cancel();
      throw new ChatLinkError(response.status === 401 || response.status === 403 ? 'rejected' : 'provider_unreachable');
    }
    const parsed = v.safeParse(DiscordUserSchema, await response.json().catch(() => null));
    if (!parsed.success) throw new ChatLinkError('bad_response');
    return { id: parsed.output.id, username: parsed.output.username, globalName: parsed.output.global_name };
  }

  return {
    authorizationUrl: (state, codeVerifier) =>
      client.createAuthorizationURLWithPKCE(config.authorizeUrl, state, CodeChallengeMethod.S256, codeVerifier, SCOPES),
    exchange: async (code, codeVerifier) => whoIs(await redeem(code, codeVerifier)),
  };
}

// arctic's token request takes no abort signal, so a hung provider is cut loose here instead.
function withDeadline<T>(work: Promise<T>, timeoutMs: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
