import { demoPlatformId } from './demo-players';
import { ChangelogEntry, Announcement } from './entities';
import type { MatchRepository, MatchReport } from './match-repository';
import type { Database } from './orm';
import type { PointsRepository } from './points-repository';
import { seedCommunity } from './seed-community';
import { seedDemoTeams } from './seed-teams';
import type { UsersRepository } from './users-repository';

/** What the seed writes through (built by src/composition/demo-seed.ts). */
export interface DemoSeedRepositories {
  users: UsersRepository;
  /** Paying DEMO_EARNING. */
  matches: MatchRepository;
  points: PointsRepository;
}

const DEMO_PLAYERS = [
  'Kestrel', 'Mossfang', 'Quillon', 'Brightwater', 'Saltmarsh', 'Tinderbox',
  'Ravelin', 'Ashgrove', 'Nightjar', 'Cobblestone', 'Wrenfield', 'Halberd',
];

/** Stand-ins for skill: the stronger side wins, so ratings spread out the way real ones would. */
const SKILL = [9, 3, 7, 12, 1, 6, 10, 4, 8, 2, 11, 5];

const CLASSES_6V6 = ['scout', 'scout', 'soldier', 'soldier', 'demoman', 'medic'];
const CLASSES_4V4 = ['scout', 'soldier', 'demoman', 'medic'];
const CLASSES_ULTIDUO = ['soldier', 'medic'];

const MATCHES: { format: string; map: string; classes: string[]; hoursAgo: number }[] = [
  { format: '6v6', map: 'cp_process_final', classes: CLASSES_6V6, hoursAgo: 96 },
  { format: '6v6', map: 'cp_gullywash_f9', classes: CLASSES_6V6, hoursAgo: 80 },
  { format: '4v4', map: 'koth_product_final', classes: CLASSES_4V4, hoursAgo: 70 },
  { format: '6v6', map: 'cp_sunshine', classes: CLASSES_6V6, hoursAgo: 50 },
  { format: 'ultiduo', map: 'ultiduo_baloo_v2', classes: CLASSES_ULTIDUO, hoursAgo: 30 },
  { format: '6v6', map: 'cp_granary_pro_rc16f', classes: CLASSES_6V6, hoursAgo: 20 },
  { format: '4v4', map: 'koth_bagel_rc10', classes: CLASSES_4V4, hoursAgo: 6 },
  { format: '6v6', map: 'cp_process_final', classes: CLASSES_6V6, hoursAgo: 2 },
];

const CHANGELOG = [
  { version: '0.1.0', title: 'League opens', body: 'Lobbies, the leaderboard and match history are live.' },
  { version: '0.2.0', title: 'Captain drafts', body: 'Captains now pick their teams from the pool in turns.' },
  { version: '0.3.0', title: 'Ready checks', body: 'Ready flags expire after 30 seconds unless renewed.' },
  { version: '0.4.0', title: 'Premium servers', body: 'Premium members can schedule servers up to 30 days ahead.' },
  { version: '0.5.0', title: 'Profile makeovers', body: 'Spend points on name colours and profile frames.' },
];

/** Demo matches pay more than the defaults, so demo players already own and show rewards. */
export const DEMO_EARNING = { played: 150, won: 200 };

/** Who bought and wears what in the demo league (reward values from the catalogue, migration 0007). */
const DEMO_LOOKS: { player: number; nameColor?: string; frame?: string }[] = [
  { player: 0, nameColor: '#dc143c', frame: 'bronze' },
  { player: 3, nameColor: '#ffd700' },
  { player: 8, frame: 'bronze' },
];

/**
 * Fills an empty database with a small, believable league: 12 players, 8 matches recorded
 * through recordMatch (so every rating is the sum of its matches, every balance the sum of its
 * ledger), a few rewards bought and worn, 5 changelog entries and one
 * announcement active at `now`. Lobby codes are lowercase with a dash, which live lobbies never
 * use, so demo matches cannot block a real report.
 */
export async function seedDemoData(db: Database, repos: DemoSeedRepositories, now: Date): Promise<void> {
  const { users, matches } = repos;
  const ids: number[] = [];
  for (const [i, username] of DEMO_PLAYERS.entries()) {
    const user = await users.upsertFromLogin({
      platformId: demoPlatformId(i),
      username,
      avatarUrl: null,
      isAdmin: false,
      at: hoursBefore(now, 120),
    });
    ids.push(user.id);
  }

  for (const [n, match] of MATCHES.entries()) {
    await matches.recordMatch(demoReport(n, match, ids, now));
  }

  await dressUp(repos.points, ids);
  await seedCommunity(db, ids, now);
  await seedDemoTeams(db, ids, now);

  const em = db.em();
  CHANGELOG.forEach((entry, i) => {
    em.create(ChangelogEntry, { ...entry, createdAt: hoursBefore(now, 24 * 7 * (CHANGELOG.length - i)) });
  });
  em.create(Announcement, {
    title: 'Welcome to the league',
    body: 'This is demo data. Log in, create a lobby and invite your friends.',
    level: 'info',
    startsAt: hoursBefore(now, 1),
    endsAt: hoursBefore(now, -24 * 30),
    createdAt: hoursBefore(now, 1),
  });
  await em.flush();
}

/** Redeems and applies the demo looks through the points repository, as a player would. */
async function dressUp(points: PointsRepository, ids: number[]): Promise<void> {
  const catalogue = await points.rewards();
  const rewardOf = (kind: string, value: string) => catalogue.find((r) => r.kind === kind && r.value === value)!;
  for (const look of DEMO_LOOKS) {
    const userId = ids[look.player];
    const color = look.nameColor ? rewardOf('name_color', look.nameColor) : undefined;
    const frame = look.frame ? rewardOf('profile_frame', look.frame) : undefined;
    for (const reward of [color, frame]) if (reward) await points.redeem(userId, reward.id);
    await points.applyMakeover(userId, { nameColor: color?.value, profileFrame: frame?.value });
  }
}

/** Seeds only a database without users. Returns whether it seeded. */
export async function seedIfEmpty(db: Database, repos: DemoSeedRepositories, now: Date): Promise<boolean> {
  if ((await repos.users.countUsers()) > 0) return false;
  await seedDemoData(db, repos, now);
  return true;
}

function demoReport(n: number, match: (typeof MATCHES)[number], ids: number[], now: Date): MatchReport {
  const size = match.classes.length;
  // A window of players that moves with every match, shuffled into sides by a per-match
  // permutation (multiplying by a unit mod 13), so teams differ from match to match.
  const roster = Array.from({ length: size * 2 }, (_, k) => (n * 5 + k) % ids.length);
  const order = (i: number) => (i * (2 * n + 3) + n) % 13;
  const shuffled = [...roster].sort((x, y) => order(x) - order(y));
  const red = shuffled.slice(0, size);
  const blu = shuffled.slice(size);
  const strength = (side: number[]) => side.reduce((sum, i) => sum + SKILL[i], 0);
  // The stronger side wins, except for an upset every fourth match.
  const redWins = strength(red) >= strength(blu) !== (n % 4 === 3);
  const endedAt = hoursBefore(now, match.hoursAgo);
  return {
    lobbyCode: `demo-${n + 1}`,
    format: match.format,
    map: match.map,
    scoreRed: redWins ? 3 : 1 + (n % 2),
    scoreBlu: redWins ? n % 3 : 3,
    startedAt: new Date(endedAt.getTime() - (25 + n * 3) * 60_000),
    endedAt,
    players: [
      ...red.map((i, slot) => ({ userId: ids[i], team: 'red' as const, class: match.classes[slot] })),
      ...blu.map((i, slot) => ({ userId: ids[i], team: 'blu' as const, class: match.classes[slot] })),
    ],
  };
}


export { demoPlatformId };

function hoursBefore(now: Date, hours: number): Date {
  return new Date(now.getTime() - hours * 3_600_000);
}
