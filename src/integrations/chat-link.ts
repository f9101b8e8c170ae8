import { randomBytes } from 'node:crypto';

/**
 * The chat-platform link as the identity area sees it. The OAuth client behind it
 * (discord-oauth.ts, with arctic) is loaded only when a chat platform is configured.
 */

export interface ChatLinkConfig {
  clientId: string;
  clientSecret: string;
  /** e.g. https://discord.com/oauth2/authorize */
  authorizeUrl: string;
  /** e.g. https://discord.com/api/oauth2/token */
  tokenUrl: string;
  /** e.g. https://discord.com/api */
  apiUrl: string;
  redirectUri: string;
  timeoutMs?: number;
}

export interface ChatUser {
  id: string;
  username: string;
  /** The display name, when the user has set one. */
  globalName: string | null;
}

export interface ChatLink {
  authorizationUrl(state: string, codeVerifier: string): URL;
  /** Redeems the code and reads who it belongs to; throws ChatLinkError. */
  exchange(code: string, codeVerifier: string): Promise<ChatUser>;
}

/** rejected: the provider refused the code or token; provider_unreachable: no usable answer; bad_response: an answer we cannot read. */
export type ChatLinkFailure = 'rejected' | 'provider_unreachable' | 'bad_response';

export class ChatLinkError extends Error {
  constructor(
    readonly reason: ChatLinkFailure,
    options?: { cause?: unknown },
  ) {
    super(`chat link failed: ${reason}`, options);
    this.name = 'ChatLinkError';
  }
}

/** A PKCE code verifier or an OAuth state: 32 random bytes, base64url without padding (RFC 7636 section 4.1). */
export const randomOAuthToken = (): string => randomBytes(32).toString('base64url');
