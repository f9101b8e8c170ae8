import * as v from 'valibot';
import { conflict, forbidden } from '../domain/domain-error';
import { applyLobbyCommand, type Actor } from '../domain/lobby';
import { clearInvites } from '../domain/party/party-invites';
import { PartyState } from '../domain/party/party-state';
import { toUserPublic } from '../db/user-record';
import type { Caller } from '../identity/caller';
import { READ_AGAIN, retryOnConflict } from './cas-retry';
import { lobbyMemberKey, partyKey, partyMemberKey } from './live-keys';
import { requireUser } from './lobby-actors';
import type { LobbyContext } from './lobby-context';
import { transact } from './lobby-transaction';
import { currentLobbyOf } from './membership-index';

const PARTY_CHANGED = Symbol('party changed');

/**
 * The leader brings the whole party into the lobby's pool, all or nothing: ONE compare-and-set
 * over the lobby, every member's index entry and the party itself (whose pending invites are
 * cancelled), so a member joining elsewhere, leaving the party or a new member arriving
 * meanwhile makes the set fail and the decision is taken again.
 */
export async function partyJoin(ctx: LobbyContext, code: string, caller: Caller): Promise<void> {
  const user = requireUser(caller);
  const { live, documents, clock, index, effects } = ctx;
  // The engines' one retry loop (cas-retry.ts): the party changing under the decision reads it again.
  await retryOnConflict<void>(live, async () => {
    const memberDoc = await live.get<number>(partyMemberKey(user.id));
    const partyDoc = memberDoc && (await live.get(partyKey(memberDoc.value)));
    if (!partyDoc) throw conflict('you are not in a party');
    const party = v.parse(PartyState, partyDoc.value);
    if (party.leaderId !== user.id) throw forbidden('only the party leader can bring the party');
    const ids = party.members.map((m) => m.id);
    const [stale, banned] = await Promise.all([index.staleEntries(ids, code), Promise.all(ids.map(ctx.isBanned))]);
    const keys = [partyKey(party.id), ...ids.map(lobbyMemberKey)];
    try {
      const committed = await transact(ctx, code, keys, (state, docs, now) => {
        if (docs.get(partyKey(party.id))?.version !== partyDoc.version) throw PARTY_CHANGED;
        const members: Actor[] = party.members.map((profile, i) => ({
          id: profile.id,
          profile: profile.id === user.id ? toUserPublic(user) : profile,
          isAdmin: profile.id === user.id && user.isAdmin,
          banned: banned[i],
          currentLobby: currentLobbyOf(profile.id, docs.get(lobbyMemberKey(profile.id)), stale),
        }));
        const outcome = applyLobbyCommand(state, { type: 'party-join', members }, members[ids.indexOf(user.id)], now);
        const cleared = clearInvites(party, now);
        const partyAfter = cleared.ok ? cleared.state : party;
        return { outcome, extraWrites: [{ key: partyKey(party.id), expectedVersion: partyDoc.version, value: partyAfter }] };
      }, { crossLobby: true });
      await effects.committed(committed, 'party-join');
      return { writes: [], value: undefined };
    } catch (error) {
      if (error !== PARTY_CHANGED) throw error;
      return READ_AGAIN;
    }
  });
}
