import { nestsDeeperThan, tooDeepMessage } from '../../schema/json-depth';
import { HttpError } from '../http-error';

const BODYLESS = new Set(['GET', 'HEAD', 'OPTIONS']);

const JSON_TYPE = /^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/;
const TEXT_PLAIN = /^text\/plain\s*(?:;|$)/;

/**
 * A request's body as JSON, from its method, Content-Type and the raw text (already buffered,
 * capped at 1 MB by the native guard). An empty body without a Content-Type reads as `{}`: the
 * specification's bodyless POSTs (join, ready...) send nothing. Any other type is 415, even with
 * an empty body, and so is a body without a type: an HTML form (urlencoded, multipart,
 * text/plain) is the one kind of cross-site request a browser sends without asking, so these
 * routes never take one (CSRF, with the Origin rule in src/identity/request-site.ts). Every HTTP
 * door (rest/route-binder.ts, rest/native-route-binder.ts) reads bodies here, after the credential step.
 * `textPlainJson`: the one exception, a sink that changes nothing a user owns (POST /api/logs/client)
 * also reads JSON sent as text/plain, which is what `navigator.sendBeacon` sends.
 */
export function parseJsonBody(method: string, contentType: string | undefined, raw: string, textPlainJson = false): unknown {
  if (BODYLESS.has(method)) return {};
  const type = String(contentType ?? '').trim().toLowerCase();
  if (type === '' && raw === '') return {};
  if (!JSON_TYPE.test(type) && !(textPlainJson && TEXT_PLAIN.test(type))) {
    throw new HttpError(415, textPlainJson ? 'request body must be application/json or text/plain' : 'request body must be application/json');
  }
  if (raw.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new HttpError(400, 'malformed JSON body');
  }
  // Refused here, for every route (the webhook's signature check included), before anything walks it.
  if (nestsDeeperThan(parsed)) throw new HttpError(400, tooDeepMessage('body'));
  return parsed;
}
