import * as v from 'valibot';
import { IntegerParam, IsoDateTime } from './common';
import { pageOf, PageQuery } from './paging';

/** Every event a webhook can subscribe to (docs/design/CONTRACT.md, "Chat-platform notifications"). */
export const NOTIFICATION_EVENT_TYPES = [
  'lobby.created',
  'lobby.needs_players',
  'lobby.live',
  'lobby.ended',
  'tournament.started',
  'tournament.match_ready',
  'tournament.completed',
  'announcement.published',
] as const;
export const NotificationEventType = v.picklist(NOTIFICATION_EVENT_TYPES, 'must be one of the notification event types');
export type NotificationEventType = v.InferOutput<typeof NotificationEventType>;

export const DELIVERY_STATUSES = ['pending', 'sent', 'failed'] as const;
export const DeliveryStatus = v.picklist(DELIVERY_STATUSES, 'must be pending, sent or failed');
export type DeliveryStatus = v.InferOutput<typeof DeliveryStatus>;

const WebhookName = v.pipe(v.string(), v.trim(), v.minLength(1, 'must not be empty'), v.maxLength(80, 'must be at most 80 characters'));
const WebhookUrl = v.pipe(v.string(), v.trim(), v.maxLength(500, 'must be at most 500 characters'), v.url('must be a URL'));
const EventList = v.pipe(
  v.array(NotificationEventType),
  v.minLength(1, 'must name at least one event'),
  v.maxLength(NOTIFICATION_EVENT_TYPES.length, 'must name each event at most once'),
);

export const WebhookCreateBody = v.object({ url: WebhookUrl, events: EventList, name: v.optional(WebhookName) });
export type WebhookCreateBody = v.InferOutput<typeof WebhookCreateBody>;

export const WebhookPatchBody = v.object({
  url: v.optional(WebhookUrl),
  events: v.optional(EventList),
  name: v.optional(WebhookName),
  /** true re-enables a webhook the platform disabled (404) once its URL is fixed. */
  enabled: v.optional(v.boolean()),
});
export type WebhookPatchBody = v.InferOutput<typeof WebhookPatchBody>;

/** A webhook as every read shows it: the URL is a secret, so only its host and last 4 characters. */
export const WebhookView = v.object({
  id: v.number(),
  name: v.string(),
  /** `environment`: DISCORD_WEBHOOK_URL, which receives every event and is changed only there. */
  source: v.picklist(['admin', 'environment']),
  url_host: v.string(),
  url_last4: v.string(),
  events: v.array(NotificationEventType),
  enabled: v.boolean(),
  /** Why delivery stopped (the platform answered 404 for the webhook), null while enabled. */
  disabled_reason: v.nullable(v.string()),
  created_at: IsoDateTime,
  updated_at: IsoDateTime,
});
export type WebhookView = v.InferOutput<typeof WebhookView>;

export const WebhookIdParams = v.object({ id: IntegerParam });

export const WebhookListQuery = v.object(PageQuery);
export const WebhookPage = pageOf('webhooks', WebhookView);

export const DeliveryListQuery = v.object({
  status: v.optional(DeliveryStatus),
  webhook_id: v.optional(v.pipe(v.string(), v.regex(/^\d{1,9}$/, 'must be a positive integer'), v.transform(Number))),
  ...PageQuery,
});

export const DeliveryView = v.object({
  id: v.number(),
  event_id: v.number(),
  event_type: NotificationEventType,
  webhook_id: v.number(),
  status: DeliveryStatus,
  /** Requests made, 429s included. */
  attempts: v.number(),
  /** Failed tries (5xx, network); at 10 the delivery is `failed`. */
  failures: v.number(),
  last_status: v.nullable(v.number()),
  last_error: v.nullable(v.string()),
  next_attempt_at: v.nullable(IsoDateTime),
  sent_at: v.nullable(IsoDateTime),
  created_at: IsoDateTime,
});
export type DeliveryView = v.InferOutput<typeof DeliveryView>;
export const DeliveryPage = pageOf('deliveries', DeliveryView);
