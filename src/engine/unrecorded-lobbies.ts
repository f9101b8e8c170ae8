import type { EmSource } from '../db/orm';
import type { UnrecordedLobbies } from './engine-ports';

/**
 * Ended lobbies whose stored snapshot has no match id: the report reached the lobby but the
 * process stopped before the match id was stored. recordMatch is idempotent per lobby code, so
 * running it again for these is always safe.
 */
export function unrecordedLobbiesIn(db: EmSource): UnrecordedLobbies {
  return {
    async codes() {
      const rows = await db
        .em()
        .execute<{ code: string }[]>(
          `select code from lobby_records where phase = 'ended' and (snapshot ->> 'matchId') is null order by updated_at`,
        );
      return rows.map((row) => row.code);
    },
  };
}
