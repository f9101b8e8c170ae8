import * as v from 'valibot';
import { OkBody } from '../common';
import { UserSelf } from '../identity';
import { defineRoute } from '../route-contract';

const tag = 'Login';
const redirect = (description: string) => ({ status: 302, description });

/** The chat provider's callback parameters; anything else it sends is ignored. */
export const ChatCallbackQuery = v.object({
  code: v.optional(v.string()),
  state: v.optional(v.string()),
  error: v.optional(v.string()),
});

export const authRoutes = {
  platformLogin: defineRoute({
    operationId: 'loginWithPlatform', method: 'get', path: '/auth/platform', tag, auth: [],
    summary: "Redirects to the identity provider's OpenID login (checkid_setup); sets the short-lived league_login state cookie the callback requires",
    description:
      'Starts a login through the identity provider (docs/design/CONTRACT.md, Logging in). A browser follows the redirect; the state cookie ties the callback to this browser.',
    success: redirect('To STEAM_OPENID_URL'), errors: [],
  }),
  platformCallback: defineRoute({
    operationId: 'platformLoginCallback', method: 'get', path: '/auth/platform/callback', tag, auth: [],
    summary:
      'Verifies the OpenID assertion (check_authentication, return_to, op_endpoint, claimed id, nonce replay); ' +
      'requires the league_login state cookie set by /auth/platform in the same browser (else login_error=login_not_started); ' +
      'sets the league_session cookie and redirects to /?logged_in=1, or to /?login_error=<reason> with no cookie; ' +
      'a 503 HTML page with Retry-After when the database or live store cannot answer',
    description:
      'Where the identity provider sends the browser back. Every failure redirects with login_error and sets no session cookie; a replayed assertion fails. When the database or the live store cannot answer, a 503 page says so (never a redirect that hides the cause).',
    success: redirect('To /?logged_in=1 or /?login_error=<reason>'), errors: [503],
  }),
  logout: defineRoute({
    operationId: 'logout', method: 'get', path: '/auth/logout', tag, auth: [],
    summary: 'Ends the session, clears the cookie and redirects to /; 403 {error} when the request comes from another site (Sec-Fetch-Site, or Origin/Referer)',
    description:
      'Ends the current session and clears the cookie.',
    success: redirect('To /'), errors: [403],
  }),
  me: defineRoute({
    operationId: 'getAuthMe', method: 'get', path: '/auth/me', tag, auth: ['session'],
    summary: 'The logged-in user (401 {error} when not logged in)',
    description:
      'The caller\'s own account (UserSelf), with the fields only its owner sees. 401 is how a page learns that nobody is logged in.',
    success: { status: 200, schema: UserSelf }, errors: [401],
  }),
  chatLink: defineRoute({
    operationId: 'linkChatAccount', method: 'get', path: '/auth/chat', tag, auth: ['session'],
    description:
      'Starts linking a chat-platform account to the logged-in user: a browser follows the redirect to the authorize page, and the callback completes the link. 401 without a session; 503 when the chat app is not configured on this server.',
    summary: "Redirects to the chat platform's OAuth authorize page (PKCE); 503 when the chat app is not configured",
    success: redirect('To the authorize page'), errors: [401, 503],
  }),
  chatCallback: defineRoute({
    operationId: 'chatLinkCallback', method: 'get', path: '/auth/chat/callback', tag, auth: [], optionalSession: true,
    description:
      'Where the chat platform sends the browser back after authorizing. It always redirects: to /?chat_linked=1 once the account is linked to the user who started the link, or to /?chat_error=<reason> (already_linked when the chat account belongs to another user).',
    summary:
      'Links the chat account to the user who started the link; redirects to /?chat_linked=1 or /?chat_error=<reason> ' +
      '(already_linked when the account belongs to another user)',
    query: ChatCallbackQuery, success: redirect('To /?chat_linked=1 or /?chat_error=<reason>'), errors: [],
  }),
  chatUnlink: defineRoute({
    operationId: 'unlinkChatAccount', method: 'post', path: '/auth/chat/unlink', tag, auth: ['session'],
    summary: 'Removes the linked chat account',
    description:
      'Forgets the chat-platform account linked to the caller; linking again starts at GET /auth/chat.',
    success: { status: 200, schema: OkBody }, errors: [401, 403],
  }),
};
