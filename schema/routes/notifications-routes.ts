import {
  DeliveryListQuery, DeliveryPage, WebhookCreateBody, WebhookIdParams, WebhookListQuery, WebhookPage, WebhookPatchBody, WebhookView,
} from '../notifications';
import { defineRoute, tagAccess } from '../route-contract';

const tag = 'Notifications';
/** Admin routes: an admin's session or an admin key (none: 401; a non-admin: 403). */
const { admin } = tagAccess(tag);
const SECRET =
  'The URL is a secret (whoever holds it can post to the channel): it is stored encrypted and no read, error, log or audit row shows more than its host and last 4 characters.';

export const notificationsRoutes = {
  createWebhook: defineRoute({
    operationId: 'createNotificationWebhook', method: 'post', path: '/api/admin/notifications/webhooks', ...admin, body: WebhookCreateBody,
    summary: 'Register a chat channel webhook for some notification events',
    description:
      `Registers a Discord webhook (the URL Discord shows under Integrations > Webhooks) to receive the events named. ${SECRET} ` +
      'The URL must have one of the origins in NOTIFY_WEBHOOK_ORIGINS (default https://discord.com and https://discordapp.com), ' +
      'compared on the parsed origin; any other is 400, so the server never posts where an admin typed by mistake. ' +
      'Events: lobby.created, lobby.needs_players (a gathering lobby first reaches two free places), lobby.live, lobby.ended (with the score), ' +
      'tournament.started, tournament.match_ready, tournament.completed, announcement.published. Writes an audit row.',
    bodyExample: { url: 'https://discord.com/api/webhooks/123456789012345678/token-from-discord', events: ['lobby.needs_players', 'lobby.live'], name: '#pugs' },
    success: { status: 201, schema: WebhookView }, errors: [400, 401, 403],
  }),
  listWebhooks: defineRoute({
    operationId: 'listNotificationWebhooks', method: 'get', path: '/api/admin/notifications/webhooks', ...admin, query: WebhookListQuery,
    summary: 'The registered webhooks, oldest first, paged',
    description: `Every webhook, DISCORD_WEBHOOK_URL included (source "environment"). ${SECRET} A webhook the platform answered 404 for is disabled, with the reason.`,
    success: { status: 200, schema: WebhookPage }, errors: [400, 401, 403],
  }),
  getWebhook: defineRoute({
    operationId: 'getNotificationWebhook', method: 'get', path: '/api/admin/notifications/webhooks/:id', ...admin, params: WebhookIdParams,
    summary: 'One webhook', description: `One webhook by id (404 when there is none). ${SECRET}`,
    success: { status: 200, schema: WebhookView }, errors: [401, 403, 404],
  }),
  updateWebhook: defineRoute({
    operationId: 'updateNotificationWebhook', method: 'patch', path: '/api/admin/notifications/webhooks/:id', ...admin, params: WebhookIdParams, body: WebhookPatchBody,
    summary: 'Change a webhook (only the fields given)',
    description:
      'Changes the name, the events, the URL (checked as on creation) or `enabled`. A new URL, or enabled: true, enables a webhook the platform had disabled. ' +
      'DISCORD_WEBHOOK_URL is changed only in the environment: 409. Writes an audit row.',
    bodyExample: { events: ['lobby.created', 'lobby.ended'], enabled: true },
    success: { status: 200, schema: WebhookView }, errors: [400, 401, 403, 404, 409],
  }),
  deleteWebhook: defineRoute({
    operationId: 'deleteNotificationWebhook', method: 'delete', path: '/api/admin/notifications/webhooks/:id', ...admin, params: WebhookIdParams,
    summary: 'Remove a webhook and its deliveries',
    description: 'Removes the webhook and its delivery history; nothing more is sent to it. DISCORD_WEBHOOK_URL: 409 (unset the variable). Writes an audit row.',
    success: { status: 204 }, errors: [401, 403, 404, 409],
  }),
  listDeliveries: defineRoute({
    operationId: 'listNotificationDeliveries', method: 'get', path: '/api/admin/notifications/deliveries', ...admin, query: DeliveryListQuery,
    summary: 'Deliveries, newest first, by status (pending, sent, failed) and webhook',
    description:
      'One delivery per event and webhook. pending: not yet acknowledged by the platform (waiting its turn, a 429 retry_after or a back-off); ' +
      'sent: the platform answered 2xx; failed: 10 failed tries (5xx, network), another 4xx, or the webhook was disabled. ' +
      'Delivery is at least once, in order per webhook, by one instance at a time.',
    success: { status: 200, schema: DeliveryPage }, errors: [400, 401, 403],
  }),
};
