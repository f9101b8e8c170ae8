import { notFound } from '../domain/domain-error';
import { chatMessage, validateChat, type LobbyChatMessage, type LobbyPhase } from '../domain/lobby';
import type { Caller } from '../identity/caller';
import type { CommandGate } from './engine-ports';
import { LOBBY_CHAT_SEQUENCE, lobbyChatKey } from './live-keys';
import { actorOf, requireUser } from './lobby-actors';
import { numberedChat } from './lobby-broadcast';
import type { LobbyContext } from './lobby-context';

/** Chat keeps the last 200 messages of a lobby (GET /chat answers them). */
export const CHAT_HISTORY = 200;

/**
 * Posts a chat message, in one round trip in the common case: the limit is counted, the lobby
 * found open with no durable change pending, the id given and the message pushed and published in
 * one step of the live store (see NumberedPush), beside the ban list's own small read. Anything
 * else (a closed or missing lobby, a pending change, a message refused on its own) reads the
 * lobby's phase as readers see it, through `visiblePhase`, and answers as the rules say. A
 * message refused for any reason meets the limit first, so the limit's refusal answers before
 * any other, as it does for every message when the gate offers no limit to count in the push.
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
  const gated = gate.limit ? undefined : gate.gated();
  gated?.catch(() => undefined);
  const banned = ctx.isBanned(user.id);
  banned.catch(() => undefined);
  await gated;
  const actor = actorOf(user, null, await banned);
  const now = ctx.clock();
  /** Pushes the message (guarded: only onto an open lobby with nothing pending); null when the guard did not hold. */
  const post = async (text: string, guarded: boolean): Promise<LobbyChatMessage | null> => {
    const unnumbered = chatMessage(actor.profile, text, now);
    const pushed = await ctx.live.pushNumbered({
      key: lobbyChatKey(code),
      maxLength: CHAT_HISTORY,
      sequence: LOBBY_CHAT_SEQUENCE,
      ...numberedChat(code, unnumbered),
      hits: gate.limit ? [gate.limit.hit] : [],
      ...(guarded ? { guard: ctx.documents.openGuard(code) } : {}),
    });
    if (pushed.ok) return { id: pushed.number, ...unnumbered };
    if ('unmet' in pushed) return null;
    throw gate.limit!.refuse(pushed.refused.find((verdict) => !verdict.allowed)!);
  };
  // Which refusal comes first depends on the phase (a closed lobby's before an empty message's):
  // only a message the rules take on an open lobby (as in any open phase) goes out before the phase is known.
  const posted = validateChat('gathering', actor, message, now) === null ? await post(message as string, true) : null;
  if (posted) return posted;
  const phase = await visiblePhase(code);
  const problem = phase === null ? notFound('lobby not found') : validateChat(phase, actor, message, now);
  if (problem) {
    if (gate.limit) await gate.gated();
    throw problem;
  }
  return (await post(message as string, false))!;
}
