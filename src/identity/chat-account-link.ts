import type { ChatLinkResult } from '../db/users-repository';
import { ChatLinkError, randomOAuthToken, type ChatLink, type ChatLinkFailure } from '../integrations/chat-link';
import type { LiveStore } from '../live/live-store';

export interface ChatAccountLinkDeps {
  /** Undefined when DISCORD_CLIENT_ID/SECRET are not configured. */
  link: ChatLink | undefined;
  live: Pick<LiveStore, 'get' | 'compareAndSet'>;
  users: { setChatAccount(userId: number, chatAccountId: string, chatUsername: string): Promise<ChatLinkResult> };
}

interface PendingLink {
  userId: number;
  codeVerifier: string;
}

export type ChatLinkRefusal =
  | ChatLinkFailure
  | 'not_configured'
  | 'denied'
  | 'bad_state'
  | 'not_logged_in'
  | 'session_mismatch'
  | 'already_linked';

export type ChatLinkOutcome = { ok: true } | { ok: false; reason: ChatLinkRefusal };

/** Long enough to click through a consent page, short enough that a leaked state is soon useless. */
const STATE_TTL_MS = 10 * 60_000;

/**
 * Linking a chat account (OAuth2 code flow with PKCE). The state and verifier stay server-side in
 * the live store, bound to the user who started; the callback consumes them once, on any instance.
 */
export class ChatAccountLink {
  constructor(private readonly deps: ChatAccountLinkDeps) {}

  get configured(): boolean {
    return this.deps.link !== undefined;
  }

  async begin(userId: number): Promise<URL> {
    if (!this.deps.link) throw new Error('chat link is not configured');
    const state = randomOAuthToken();
    const codeVerifier = randomOAuthToken();
    const pending: PendingLink = { userId, codeVerifier };
    const stored = await this.deps.live.compareAndSet([{ key: stateKey(state), expectedVersion: 0, value: pending, ttlMs: STATE_TTL_MS }]);
    if (!stored.ok) throw new Error('OAuth state collision');
    return this.deps.link.authorizationUrl(state, codeVerifier);
  }

  /**
   * `sessionUserId` is whoever the browser is logged in as now: the link is made only for the user
   * who started it, so a callback URL planted in someone else's browser links nothing.
   */
  async complete(
    query: { code?: string; state?: string; error?: string },
    sessionUserId: number | null,
  ): Promise<ChatLinkOutcome> {
    if (!this.deps.link) return refuse('not_configured');
    const pending = query.state ? await this.consume(query.state) : null;
    if (!pending) return refuse('bad_state');
    if (query.error || !query.code) return refuse('denied');
    if (sessionUserId === null) return refuse('not_logged_in');
    if (sessionUserId !== pending.userId) return refuse('session_mismatch');
    let chatUser;
    try {
      chatUser = await this.deps.link.exchange(query.code, pending.codeVerifier);
    } catch (error) {
      if (error instanceof ChatLinkError) return refuse(error.reason);
      throw error;
    }
    const linked = await this.deps.users.setChatAccount(pending.userId, chatUser.id, chatUser.globalName ?? chatUser.username);
    if (!linked.ok) return refuse(linked.reason === 'linked_to_another_user' ? 'already_linked' : 'not_logged_in');
    return { ok: true };
  }

  /** Reads and deletes the pending link in one compare-and-set: a state works once. */
  private async consume(state: string): Promise<PendingLink | null> {
    const key = stateKey(state);
    const found = await this.deps.live.get<PendingLink>(key);
    if (!found) return null;
    const taken = await this.deps.live.compareAndSet([{ key, expectedVersion: found.version, value: null }]);
    return taken.ok ? found.value : null;
  }
}

const stateKey = (state: string) => `chat-oauth:${state.slice(0, 128)}`;
const refuse = (reason: ChatLinkRefusal): ChatLinkOutcome => ({ ok: false, reason });
