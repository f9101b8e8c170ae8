import type { Database } from '../../src/db/orm';
import type { MatchReport } from '../../src/db/match-repository';
import { UsersRepository } from '../../src/db/users-repository';
import type { UserRecord } from '../../src/db/user-record';

let platformCounter = 0;

/** A distinct 17-digit platform id for every call in a test process. */
export function platformId(): string {
  platformCounter += 1;
  return `7656119${String(process.pid % 1000).padStart(3, '0')}${String(platformCounter).padStart(7, '0')}`;
}

/** Users with the given ratings and match counts (1000 and 0 by default). */
export async function makeUsers(
  db: Database,
  specs: { elo?: number; matchesPlayed?: number; username?: string }[],
): Promise<UserRecord[]> {
  const users = new UsersRepository(db);
  const made: UserRecord[] = [];
  for (const [i, spec] of specs.entries()) {
    const user = await users.upsertFromLogin({
      platformId: platformId(),
      username: spec.username ?? `player${i}`,
      avatarUrl: null,
      isAdmin: false,
    });
    await db
      .em()
      .execute('update users set elo = ?, matches_played = ? where id = ?', [
        spec.elo ?? 1000,
        spec.matchesPlayed ?? 0,
        user.id,
      ]);
    made.push({ ...user, elo: spec.elo ?? 1000, matchesPlayed: spec.matchesPlayed ?? 0 });
  }
  return made;
}

let lobbyCounter = 0;

export function lobbyCode(): string {
  lobbyCounter += 1;
  return `T${lobbyCounter.toString(36).toUpperCase().padStart(5, '0')}`;
}

/** A 1v1 (or larger) report: the first half of userIds on red, the rest on blu. */
export function report(userIds: number[], scoreRed: number, scoreBlu: number, overrides: Partial<MatchReport> = {}): MatchReport {
  const half = Math.ceil(userIds.length / 2);
  const endedAt = overrides.endedAt ?? new Date('2026-03-01T12:30:00Z');
  return {
    lobbyCode: lobbyCode(),
    format: '6v6',
    map: 'cp_process_f12',
    scoreRed,
    scoreBlu,
    startedAt: new Date(endedAt.getTime() - 30 * 60_000),
    endedAt,
    players: userIds.map((userId, i) => ({ userId, team: i < half ? 'red' : 'blu', class: 'soldier' })),
    ...overrides,
  };
}
