import { describe, expect, it } from 'vitest';
import { makeTeam, tournamentBody, type TestTeam } from '../tournaments/tournament-fixtures';
import { messagesTo, registerWebhook, useNotifyWorld, waitForMessagesTo } from './notify-fixtures';

const notify = useNotifyWorld();

const TOURNAMENT_EVENTS = ['tournament.started', 'tournament.match_ready', 'tournament.completed'];
const deliveries = async (webhookId: number) =>
  (await notify.world.asKey(`/api/admin/notifications/deliveries?webhook_id=${webhookId}&limit=100`)).body.deliveries as any[];

async function bracket(id: number): Promise<any[]> {
  const answer = await notify.world.admin.get(`/api/tournaments/${id}/bracket`);
  return answer.body.stages.flatMap((s: any) => s.rounds.flatMap((r: any) => r.matches));
}

describe('tournament events', () => {
  it('a 4-team single elimination played through REST: started, match_ready for each match, completed with the champion, once each', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, TOURNAMENT_EVENTS);
    const created = await notify.world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody({ name: 'Notify Cup' }) });
    expect(created.status).toBe(201);
    const id: number = created.body.id;
    const teams: TestTeam[] = [];
    for (let i = 0; i < 4; i += 1) teams.push(await makeTeam(notify.world.server.database.db, await notify.world.player()));
    for (const team of teams) expect((await team.leader.post(`/api/tournaments/${id}/entries`, { team_id: team.id })).status).toBe(201);
    expect((await notify.world.asKey(`/api/admin/tournaments/${id}/start`, { method: 'POST' })).status).toBe(200);

    const start = await waitForMessagesTo(notify.fake, hook.url, 3);
    const link = `https://pugs.example.org/api/tournaments/${id}`;
    expect(start[0].body.content).toBe(`Tournament started: Notify Cup ${link}`);
    expect(start[0].body.embeds![0]).toMatchObject({ title: 'Notify Cup', url: link, description: '4 teams' });
    expect(start.slice(1).map((m) => m.body.content)).toEqual([
      expect.stringMatching(/^Match ready in Notify Cup: Team .+ vs Team .+ https:\/\/pugs\.example\.org\/api\/tournaments\/\d+$/),
      expect.stringMatching(/^Match ready in Notify Cup: Team .+ vs Team .+ /),
    ]);
    expect(start[1].body.embeds![0].fields).toEqual(expect.arrayContaining([{ name: 'Format', value: 'ultiduo', inline: true }]));

    const leaderOf = (teamId: number) => teams.find((t) => t.id === teamId)!.leader;
    let champion = '';
    for (;;) {
      const ready = (await bracket(id)).filter((m) => m.status === 'ready');
      if (ready.length === 0) break;
      for (const match of ready) {
        const path = `/api/tournaments/${id}/matches/${match.id}`;
        expect((await leaderOf(match.home.team_id).post(`${path}/report`, { home_score: 2, away_score: 0 })).status).toBe(200);
        expect((await leaderOf(match.away.team_id).post(`${path}/confirm`)).status).toBe(200);
        champion = match.home.team_id;
      }
    }
    // started, 2 semi-finals ready, the final ready, completed.
    const all = await waitForMessagesTo(notify.fake, hook.url, 5);
    expect(all.map((m) => (m.body.content ?? '').split(':')[0])).toEqual([
      'Tournament started', 'Match ready in Notify Cup', 'Match ready in Notify Cup', 'Match ready in Notify Cup', 'Tournament completed',
    ]);
    const { body } = await notify.world.admin.get(`/api/tournaments/${id}`);
    expect(body.status).toBe('completed');
    const winnerName: string = body.entries.find((e: any) => e.team.id === champion).team.name;
    expect(all[4].body.content).toBe(`Tournament completed: Notify Cup, won by ${winnerName} ${link}`);
    expect(all[4].body.embeds![0].fields).toEqual(expect.arrayContaining([{ name: 'Champion', value: winnerName, inline: true }]));
    // Nothing more comes (each event once).
    await new Promise((r) => setTimeout(r, 300));
    expect(messagesTo(notify.fake, hook.url)).toHaveLength(5);
    expect((await deliveries(hook.id)).map((d) => d.status)).toEqual(['sent', 'sent', 'sent', 'sent', 'sent']);
  });
});

describe('a scheduled announcement', () => {
  it('is announced when its window opens, and holds up nothing queued behind it', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    const opens = Date.now() + 2_000;
    const later = await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Later', body: '', starts_at: new Date(opens).toISOString() } });
    expect(later.status).toBe(201);
    await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Now', body: '' } });
    const [first] = await waitForMessagesTo(notify.fake, hook.url, 1);
    expect(first.body.content).toBe('Announcement: Now');
    expect(first.at).toBeLessThan(opens);
    const [, second] = await waitForMessagesTo(notify.fake, hook.url, 2);
    expect(second.body.content).toBe('Announcement: Later');
    expect(second.at).toBeGreaterThanOrEqual(opens - 50);
  });

  it('is not announced when deleted before its window opens', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    const opens = Date.now() + 1_000;
    const created = await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Gone', body: '', starts_at: new Date(opens).toISOString() } });
    expect((await notify.world.asKey(`/api/admin/announcements/${created.body.id}`, { method: 'DELETE' })).status).toBeLessThan(300);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(messagesTo(notify.fake, hook.url)).toHaveLength(0);
    expect(await deliveries(hook.id)).toMatchObject([{ status: 'failed', last_error: 'withdrawn before it was due' }]);
  });

  it('an edit before its window opens moves it and says what the announcement says now', async () => {
    const hook = await registerWebhook(notify.world, notify.fake, ['announcement.published']);
    const created = await notify.world.asKey('/api/admin/announcements', { method: 'POST', body: { title: 'Draft', body: '', starts_at: new Date(Date.now() + 60_000).toISOString() } });
    const opens = Date.now() + 1_000;
    const edited = await notify.world.asKey(`/api/admin/announcements/${created.body.id}`, { method: 'PATCH', body: { title: 'Final', starts_at: new Date(opens).toISOString() } });
    expect(edited.status).toBe(200);
    const [message] = await waitForMessagesTo(notify.fake, hook.url, 1);
    expect(message.body.content).toBe('Announcement: Final');
    expect(message.at).toBeGreaterThanOrEqual(opens - 50);
  });
});
