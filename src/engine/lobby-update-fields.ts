import type { LobbyDetail } from '../../schema/lobby';

/**
 * A `lobby:update` as the lobby feed carries it: the lobby detail's top-level fields, each as its
 * JSON text, either all of them (a whole update) or only those whose JSON differs from the version
 * before (a delta). A vote changes `votes` and `version`, a few dozen bytes of a 6v6 lobby's 4 KB;
 * carrying only those spares the committing instance, Redis and every receiving instance moving
 * the rest. A receiver keeps the fields of the last version it assembled (LobbyFeedAssembler)
 * and splices a delta into them; the assembled JSON is the same, byte for byte, as
 * JSON.stringify of the whole payload.
 *
 * A body is one letter, F (whole) or D (delta), then `name US json` entries separated by RS. JSON
 * text never holds a raw control character (JSON.stringify escapes them), so the separators
 * cannot occur inside a value; the names are the detail's own keys.
 */
export interface LobbyFields {
  names: readonly string[];
  /** Each field's JSON, in the order of `names`. */
  values: string[];
}

const WHOLE = 'F';
const DELTA = 'D';
const FIELD = '\x1f';
const NEXT = '\x1e';

/** The body of a whole update. */
export function wholeBody(fields: LobbyFields): string {
  return fieldsBody(WHOLE, fields, undefined);
}

/**
 * The body of the update from `base` (the fields the feed carried for the version before) to
 * `fields`: only what changed. Both must have the same names in the same order.
 */
export function deltaBody(fields: LobbyFields, base: readonly string[]): string {
  return fieldsBody(DELTA, fields, base);
}

/** `kind`, then the fields (those whose JSON differs from `base`'s, given one) as `name US json`, RS between. */
function fieldsBody(kind: string, fields: LobbyFields, base: readonly string[] | undefined): string {
  let body = kind;
  for (let i = 0; i < fields.names.length; i++) {
    if (base && fields.values[i] === base[i]) continue;
    body += `${body.length === 1 ? '' : NEXT}${fields.names[i]}${FIELD}${fields.values[i]}`;
  }
  return body;
}

/** A body read back: whether it is whole, and its [name, JSON] entries. */
export function readBody(body: string): { whole: boolean; entries: Array<[string, string]> } {
  const kind = body[0];
  if (kind !== WHOLE && kind !== DELTA) throw new Error(`lobby feed: an update body starts with ${WHOLE} or ${DELTA}`);
  const entries: Array<[string, string]> = [];
  let at = 1;
  while (at < body.length) {
    const end = body.indexOf(NEXT, at);
    const entry = body.slice(at, end === -1 ? body.length : end);
    const split = entry.indexOf(FIELD);
    if (split <= 0) throw new Error('lobby feed: an update field without a name');
    entries.push([entry.slice(0, split), entry.slice(split + 1)]);
    at = end === -1 ? body.length : end + 1;
  }
  return { whole: kind === WHOLE, entries };
}

/** The fields of a detail (a lobby read from the store, or a publisher without a renderer). */
export function fieldsOf(detail: LobbyDetail): LobbyFields {
  const names = Object.keys(detail);
  return { names, values: names.map((name) => JSON.stringify(detail[name as keyof LobbyDetail])) };
}

/** The `lobby:update` payload's JSON, `{code, version, lobby}`, exactly as JSON.stringify writes it. */
export function updateJson(code: string, version: number, fields: LobbyFields): string {
  let lobby = '';
  for (let i = 0; i < fields.names.length; i++) lobby += `${i === 0 ? '' : ','}"${fields.names[i]}":${fields.values[i]}`;
  return `{"code":${JSON.stringify(code)},"version":${version},"lobby":{${lobby}}}`;
}
