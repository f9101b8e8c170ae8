import { openMembers } from '../domain/lobby';
import type { LiveStore, VersionedDoc } from '../live/live-store';
import { lobbyMemberKey } from './live-keys';
import type { LobbyDocuments } from './lobby-documents';

/** Index entries (user -> lobby) found to point at a lobby the user is no longer in: userId -> entry version. */
export type StaleEntries = ReadonlyMap<number, number>;

/**
 * The user -> open lobby index. Entries are written in the same compare-and-set as the lobby, so
 * they are right unless something outside the engine interfered (a lost or flushed lobby). Before
 * a join, entries naming another lobby are checked against that lobby, so a user is never locked
 * out by a lobby that no longer holds them.
 */
export class MembershipIndex {
  constructor(
    private readonly live: LiveStore,
    private readonly documents: LobbyDocuments,
  ) {}

  async staleEntries(userIds: number[], joining: string | null): Promise<StaleEntries> {
    const docs = await this.live.getMany<string>(userIds.map(lobbyMemberKey));
    const stale = new Map<number, number>();
    await Promise.all(
      userIds.map(async (userId, i) => {
        const doc = docs[i];
        if (doc === null || doc.value === joining) return;
        const lobby = await this.documents.load(doc.value);
        // A durable change pending that lets the user in (a join, a creation) counts: the entry is not stale unless it is taken back.
        const member = lobby === null ? await this.documents.creationPending(doc.value) : [lobby.state, lobby.pending].some((state) => state && openMembers(state).includes(userId));
        if (!member) stale.set(userId, doc.version);
      }),
    );
    return stale;
  }
}

/** The lobby an index entry names, unless it was found stale at exactly this version. */
export function currentLobbyOf(userId: number, doc: VersionedDoc<unknown> | null | undefined, stale: StaleEntries): string | null {
  if (!doc || stale.get(userId) === doc.version) return null;
  return typeof doc.value === 'string' ? doc.value : null;
}
