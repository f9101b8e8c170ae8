import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminWorld, type AdminWorld } from '../admin/admin-fixtures';
import type { Player } from '../lobby/lobby-client';
import { makeTeam, playOut, tournamentBody, type TestTeam } from '../tournaments/tournament-fixtures';
import { balanceOf, cupBody, expectLedgerHolds, ledgerSum, rosterOf } from './cup-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(() => world?.server.close());

const db = () => world.server.database.db;
const FEE = { amount: 100, currency: 'points' };

async function award(userId: number, amount: number): Promise<void> {
  const answer = await world.asKey('/api/points/admin/award', { method: 'POST', body: { user_id: userId, amount, reason: 'cup test stake' } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

async function createCup(overrides: Record<string, unknown> = {}): Promise<any> {
  const answer = await world.asKey('/api/admin/tournaments', { method: 'POST', body: cupBody(FEE, overrides) });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function fundedTeam(points: number): Promise<TestTeam> {
  const team = await makeTeam(db(), await world.player());
  if (points > 0) await award(team.leader.id, points);
  return team;
}

/** A team built through the teams routes: its leader and one member who joined by invitation. */
async function teamByInvite(): Promise<TestTeam & { mate: Player }> {
  const leader = await world.player();
  const mate = await world.player();
  const created = await leader.post('/api/teams', { name: `Roster ${leader.id}`, tag: `R${leader.id % 100000}` });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  await join(leader, created.body.id, mate);
  return { id: created.body.id, leader, mate };
}

async function join(leader: Player, teamId: number, newcomer: Player): Promise<void> {
  const invite = await leader.post(`/api/teams/${teamId}/invites`, { user_id: newcomer.id });
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  const accepted = await newcomer.post(`/api/teams/invites/${invite.body.id}/accept`);
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

describe('a points cup', () => {
  it('is played by 4 teams from creation to payouts, every wallet matching the ledger', async () => {
    const cup = await createCup({ max_teams: 4, prizes: [{ rank: 1, percent: 60 }, { rank: 2, percent: 30 }], house_percent: 10 });
    expect(cup).toMatchObject({ entry_fee: FEE, prizes: [{ rank: 1, percent: 60 }, { rank: 2, percent: 30 }], house_percent: 10 });
    const teams = [await fundedTeam(150), await fundedTeam(150), await fundedTeam(150), await fundedTeam(50)];
    for (const team of teams.slice(0, 3)) {
      expect((await team.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: team.id })).status).toBe(201);
      expect(await balanceOf(team.leader)).toBe(50);
    }
    // Short of points: 402 and nothing written.
    const short = teams[3]!;
    expect((await short.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: short.id })).status).toBe(402);
    expect(await balanceOf(short.leader)).toBe(50);
    expect((await world.admin.get(`/api/cups/${cup.id}`)).body.entries).toHaveLength(3);
    await award(short.leader.id, 50);
    expect((await short.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: short.id })).status).toBe(201);

    // A withdrawal before the start refunds the fee; entering again pays it again.
    const first = teams[0]!;
    expect((await first.leader.send('DELETE', `/api/tournaments/${cup.id}/entries/${first.id}`)).status).toBe(204);
    expect(await balanceOf(first.leader)).toBe(150);
    expect((await first.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: first.id })).status).toBe(201);
    expect(await balanceOf(first.leader)).toBe(50);

    const listed = (await world.admin.get('/api/cups')).body;
    expect(listed.cups.map((c: any) => c.id)).toContain(cup.id);
    expect((await world.admin.get(`/api/cups/${cup.id}`)).body.prize_pool).toEqual({ amount: 360, currency: 'points' });

    // Payouts are locked until the cup completes.
    expect((await world.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' })).status).toBe(409);
    expect((await world.asKey(`/api/admin/tournaments/${cup.id}/start`, { method: 'POST' })).status).toBe(200);
    await playOut(world.admin, cup.id, teams);
    const done = (await world.admin.get(`/api/cups/${cup.id}`)).body;
    expect(done.status).toBe('completed');

    const paid = await world.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    const winner = done.entries.find((e: any) => e.final_rank === 1).team.id;
    const runnerUp = done.entries.find((e: any) => e.final_rank === 2).team.id;
    expect(paid.body.map((p: any) => [p.rank, p.team_id, p.amount, p.status])).toEqual([
      [1, winner, 216, 'paid'],
      [2, runnerUp, 108, 'paid'],
    ]);
    // Equal parts of the final roster (two players each here).
    for (const [teamId, amount] of [[winner, 216], [runnerUp, 108]] as const) {
      for (const userId of await rosterOf(db(), teamId)) expect(await ledgerSum(db(), userId, ['cup_prize'])).toBe(amount / 2);
    }

    // A second call pays nothing twice.
    const again = await world.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' });
    expect(again.body).toEqual(paid.body);
    for (const userId of await rosterOf(db(), winner)) expect(await ledgerSum(db(), userId, ['cup_prize'])).toBe(108);
    expect((await world.admin.get(`/api/cups/${cup.id}`)).body.payouts).toEqual(paid.body);

    // Every leader: stake - fee (+ prize share); and every wallet is its ledger.
    for (const team of teams) {
      const share = team.id === winner ? 108 : team.id === runnerUp ? 54 : 0;
      expect(await balanceOf(team.leader)).toBe((team === short ? 0 : 50) + share);
    }
    await expectLedgerHolds(db());
  });

  it('gives the remainder of a prize split to the team leader', async () => {
    const cup = await createCup({ max_teams: 2, entry_fee: { amount: 3, currency: 'points' }, prizes: [{ rank: 1, percent: 50 }] });
    const teams = [await fundedTeam(3), await fundedTeam(3)];
    for (const team of teams) expect((await team.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: team.id })).status).toBe(201);
    expect((await world.asKey(`/api/admin/tournaments/${cup.id}/start`, { method: 'POST' })).status).toBe(200);
    await playOut(world.admin, cup.id, teams);
    const paid = await world.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' });
    expect(paid.body).toHaveLength(1);
    const winner = teams.find((t) => t.id === paid.body[0].team_id)!;
    // Half of a pool of 6 over two players: 1 each, and the 1 left over to the leader.
    expect(paid.body[0].amount).toBe(3);
    expect(await ledgerSum(db(), winner.leader.id, ['cup_prize'])).toBe(2);
    const other = (await rosterOf(db(), winner.id)).find((id) => id !== winner.leader.id)!;
    expect(await ledgerSum(db(), other, ['cup_prize'])).toBe(1);
    await expectLedgerHolds(db());
  });

  it('pays a team\'s prize to its roster at the cup\'s completion, not to who is on the team at payout time', async () => {
    const cup = await createCup({ max_teams: 2, entry_fee: { amount: 10, currency: 'points' }, prizes: [{ rank: 1, percent: 50 }, { rank: 2, percent: 50 }] });
    const roster = await teamByInvite();
    await award(roster.leader.id, 10);
    const other = await fundedTeam(10);
    for (const team of [roster, other]) expect((await team.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: team.id })).status).toBe(201);
    expect((await world.asKey(`/api/admin/tournaments/${cup.id}/start`, { method: 'POST' })).status).toBe(200);
    await playOut(world.admin, cup.id, [roster, other]);
    expect((await world.admin.get(`/api/cups/${cup.id}`)).body.status).toBe('completed');

    // After the completion the roster unlocks: the member leaves and a newcomer joins.
    expect((await roster.mate.post(`/api/teams/${roster.id}/leave`)).status).toBe(200);
    const newcomer = await world.player();
    await join(roster.leader, roster.id, newcomer);

    const paid = await world.asKey(`/api/admin/cups/${cup.id}/payouts`, { method: 'POST' });
    expect(paid.status, JSON.stringify(paid.body)).toBe(200);
    // A pool of 20, half of it (10) to each team, in equal parts over its final roster of two.
    expect(paid.body.find((p: any) => p.team_id === roster.id).amount).toBe(10);
    expect(await ledgerSum(db(), roster.leader.id, ['cup_prize'])).toBe(5);
    expect(await ledgerSum(db(), roster.mate.id, ['cup_prize'])).toBe(5);
    expect(await ledgerSum(db(), newcomer.id, ['cup_prize'])).toBe(0);
    expect(await balanceOf(roster.mate)).toBe(5);
    expect(await balanceOf(newcomer)).toBe(0);
    await expectLedgerHolds(db());
  });

  it('refunds every entry to the ledger when the cup is cancelled', async () => {
    const cup = await createCup({ max_teams: 4 });
    const teams = [await fundedTeam(100), await fundedTeam(120)];
    for (const team of teams) expect((await team.leader.post(`/api/tournaments/${cup.id}/entries`, { team_id: team.id })).status).toBe(201);
    expect((await world.asKey(`/api/admin/tournaments/${cup.id}/cancel`, { method: 'POST' })).status).toBe(200);
    expect(await balanceOf(teams[0]!.leader)).toBe(100);
    expect(await balanceOf(teams[1]!.leader)).toBe(120);
    expect(await ledgerSum(db(), teams[0]!.leader.id, ['cup_entry', 'cup_refund'])).toBe(0);
    await expectLedgerHolds(db());
  });

  it('charges points when the fee names no currency', async () => {
    const answer = await world.asKey('/api/admin/tournaments', { method: 'POST', body: cupBody({ amount: 25 }) });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({ entry_fee: { amount: 25, currency: 'points' }, prizes: [{ rank: 1, percent: 100 }], house_percent: 0 });
  });

  it('refuses a money cup with 409 when PayPal is not configured', async () => {
    const answer = await world.asKey('/api/admin/tournaments', { method: 'POST', body: cupBody({ amount: 500, currency: 'EUR' }) });
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body.error).toContain('PayPal');
  });

  it('refuses cup terms out of range', async () => {
    const bad = [
      { entry_fee: { amount: 10, currency: 'USD' } },
      { entry_fee: FEE, prizes: [{ rank: 1, percent: 70 }, { rank: 2, percent: 40 }] },
      { entry_fee: FEE, house_percent: 51 },
      { entry_fee: FEE, prizes: [{ rank: 1, percent: 50 }, { rank: 1, percent: 10 }] },
    ];
    for (const terms of bad) {
      const answer = await world.asKey('/api/admin/tournaments', { method: 'POST', body: cupBody(FEE, terms) });
      expect(answer.status, JSON.stringify(terms)).toBe(400);
    }
  });
});

describe('the cup list', () => {
  it('refuses a limit above 100 or a page below 1', async () => {
    for (const query of ['limit=101', 'limit=0', 'page=0', 'page=x']) {
      const answer = await world.admin.get(`/api/cups?${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.error, query).toEqual(expect.any(String));
    }
    expect((await world.admin.get('/api/cups?page=1&limit=100')).status).toBe(200);
  });

  it('lists no plain tournament, and answers 404 for one', async () => {
    const plain = await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody({ name: 'Plain Tournament' }) });
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    const cup = await createCup();
    const listed = (await world.admin.get('/api/cups?limit=100')).body;
    expect(listed.cups.map((c: any) => c.id)).toContain(cup.id);
    expect(listed.cups.map((c: any) => c.id)).not.toContain(plain.body.id);
    expect(listed.cups.every((c: any) => c.entry_fee !== null)).toBe(true);
    expect((await world.admin.get(`/api/cups/${plain.body.id}`)).status).toBe(404);
  });
});
