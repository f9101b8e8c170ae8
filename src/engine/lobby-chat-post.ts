import { notFound } from '../domain/domain-error';
import { chatMessage, validateChat, type LobbyChatMessage, type LobbyPhase } from '../domain/lobby';
import type { Actor } from '../domain/lobby/lobby-actor';
import type { Caller } from '../identity/caller';
import type { ReadGuard } from '../live/live-store';
import type { CommandGate } from './engine-ports';
import { LOBBY_CHAT_SEQUENCE, lobbyChatKey } from './live-keys';
import { actorOf, requireUser } from './lobby-actors';
import { numberedChat } from './lobby-broadcast';
import type { LobbyContext } from './lobby-context';

/** Chat keeps the last 200 messages of a lobby (GET /chat answers them). */
export const CHAT_HISTORY = 200;

/**
 * Posts a chat message, in one round trip in the common case: the limit is counted, the lobby
 * found open with no durable change pending, the ban list found still current, the id given and
 * the message pushed and published in one step of the live store (see NumberedPush). The ban
 * list is this instance's (BanList): while it knows it current, the push is guarded on the list's
 * generation instead of reading the generation first, so a ban given on any instance since makes
 * the push unmet, and the message is decided again on the list read now. Anything else (a
 * closed or missing lobby, a pending change, a message refused on its own) reads the lobby's
 * phase as readers see it, through `visiblePhase`, and answers as the rules say. A message
 * refused for any reason meets the limit first, so the limit's refusal answers before any other,
 * as it does for every message when the gate offers no limit to count in the push.
 */
export async function postChat(
  ctx: LobbyContext,
  visiblePhase: (code: string) => Promise<LobbyPhase | null>,
  code: string,
  caller: Caller,
  message: unknown,
  gate: CommandGate,
): Promise<LobbyChatMessage> {
  const user = requireUser(caller);
  // Which refusal comes first depends on the phase (a closed lobby's before an empty message's):
  // only a message the rules take on an open lobby (as in any open phase) goes out before the phase is known.
  const ontoOpenLobby = async (actor: Actor, now: number, versions?: ReadGuard[]) =>
    validateChat('gathering', actor, message, now) === null ? pushChat(ctx, code, actor, message as string, now, gate, { guarded: true, versions }) : null;
  const known = gate.limit ? ctx.knownBan(user.id) : null;
  if (known && !known.banned) {
    const posted = await ontoOpenLobby(actorOf(user, null, false), ctx.clock(), [known.guard]);
    if (posted) return posted;
  }
  const gated = gate.limit ? undefined : gate.gated();
  gated?.catch(() => undefined);
  const banned = ctx.isBanned(user.id);
  banned.catch(() => undefined);
  await gated;
  const actor = actorOf(user, null, await banned);
  const now = ctx.clock();
  const posted = await ontoOpenLobby(actor, now);
  if (posted) return posted;
  const phase = await visiblePhase(code);
  const problem = phase === null ? notFound('lobby not found') : validateChat(phase, actor, message, now);
  if (problem) {
    if (gate.limit) await gate.gated();
    throw problem;
  }
  return (await pushChat(ctx, code, actor, message as string, now, gate, { guarded: false }))!;
}

/**
 * Pushes the message, its limit hit counted in the same step; with `guarded`, only onto an open
 * lobby with nothing pending, and only while the `versions` read are current: null when that did not hold.
 */
async function pushChat(
  ctx: LobbyContext,
  code: string,
  actor: Actor,
  text: string,
  now: number,
  gate: CommandGate,
  conditions: { guarded: boolean; versions?: ReadGuard[] },
): Promise<LobbyChatMessage | null> {
  const unnumbered = chatMessage(actor.profile, text, now);
  const pushed = await ctx.live.pushNumbered({
    key: lobbyChatKey(code),
    maxLength: CHAT_HISTORY,
    sequence: LOBBY_CHAT_SEQUENCE,
    ...numberedChat(code, unnumbered),
    hits: gate.limit ? [gate.limit.hit] : [],
    ...(conditions.guarded ? { guard: ctx.documents.openGuard(code) } : {}),
    ...(conditions.versions ? { versions: conditions.versions } : {}),
  });
  if (pushed.ok) return { id: pushed.number, ...unnumbered };
  if ('unmet' in pushed) return null;
  throw gate.limit!.refuse(pushed.refused.find((verdict) => !verdict.allowed)!);
}
