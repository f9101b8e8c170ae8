import * as v from 'valibot';
import { LOG_STATUSES } from './server-vocabulary';

const httpUrl = v.pipe(v.string(), v.maxLength(2048), v.url('must be a URL'), v.regex(/^https?:\/\//i, 'must be an http or https URL'));

export const RconExecBody = v.object({ command: v.pipe(v.string(), v.minLength(1, 'command must be 1 to 512 characters'), v.maxLength(512, 'command must be 1 to 512 characters')) });
export const RconExecResponse = v.object({ output: v.string() });
export const FetchLogBody = v.object({});
export const SubmitLogBody = v.object({ log_url: httpUrl });
export const ServerCheck = v.object({ online: v.boolean(), players: v.number(), max_players: v.number(), map: v.nullable(v.string()) });
export const LogStatusResponse = v.object({ status: v.picklist(LOG_STATUSES), log_url: v.nullable(v.string()), demo_url: v.nullable(v.string()) });

export const PluginExtendBody = v.object({
  reservation_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  minutes: v.pipe(v.number(), v.integer('minutes must be an integer'), v.minValue(1, 'minutes must be 1 to 60'), v.maxValue(60, 'minutes must be 1 to 60')),
});
export const PluginExtendResponse = v.object({ ok: v.boolean(), new_expires_at: v.string() });
export const PluginWhoBody = v.object({ reservation_id: v.pipe(v.number(), v.integer(), v.minValue(1)) });
export const PluginWhoResponse = v.object({
  reservation_id: v.number(),
  lobby_code: v.nullable(v.string()),
  players: v.array(v.object({ user_id: v.number(), platform_id: v.string(), username: v.string(), team: v.picklist(['red', 'blu']), class: v.string() })),
});
export const PluginReportMatchBody = v.object({
  reservation_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
  log_url: httpUrl,
  demo_url: v.optional(v.nullable(httpUrl)),
});
