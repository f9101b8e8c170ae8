import { describe, expect, it } from 'vitest';
import { discordMessage } from '../../../src/domain/notifications/discord-message';
import { tournamentEvents, type BracketChange } from '../../../src/domain/notifications/tournament-events';
import { confirmResult, generateBracket, reportResult, type BracketMatch } from '../../../src/domain/tournaments';

const cup = { id: 7, name: 'Sunday Cup', format: 'ultiduo', kind: 'single_elimination' };
const names: Record<number, string> = { 1: 'Froyotech', 2: 'Ascent', 3: 'Kittens', 4: 'Lemons', 5: 'Byes' };
const change = (before: readonly BracketMatch[], after: readonly BracketMatch[], champion: number | null = null): BracketChange => ({
  tournament: cup, before, after, champion, teamName: (id) => names[id]!,
});

function bracket(teams: number[]): BracketMatch[] {
  const generated = generateBracket('single_elimination', teams, null);
  if (!generated.ok) throw new Error('no bracket');
  return generated.state;
}

function win(matches: BracketMatch[], key: string): BracketMatch[] {
  const m = matches.find((x) => x.key === key)!;
  const reported = reportResult(matches, key, m.homeTeamId, 2, 0);
  if (!reported.ok) throw reported.error;
  const confirmed = confirmResult(reported.state.matches, key, m.awayTeamId);
  if (!confirmed.ok) throw confirmed.error;
  return confirmed.state.matches;
}

const readyKeys = (matches: BracketMatch[]) => matches.filter((m) => m.status === 'ready').map((m) => m.key);

describe('tournament events from a bracket change', () => {
  it('on start: started with every team, and match_ready for each first-round match', () => {
    const after = bracket([1, 2, 3, 4]);
    const events = tournamentEvents(change([], after));
    expect(events.map((e) => e.type)).toEqual(['tournament.started', 'tournament.match_ready', 'tournament.match_ready']);
    expect(events[0]).toMatchObject({ key: 'tournament.started:7', payload: { tournament_id: 7, name: 'Sunday Cup', format: 'ultiduo', detail: '4 teams' } });
    expect([...(events[0].payload as { teams: string[] }).teams].sort()).toEqual(['Ascent', 'Froyotech', 'Kittens', 'Lemons']);
    const ready = readyKeys(after);
    expect(events.slice(1).map((e) => e.key)).toEqual(ready.map((k) => `tournament.match_ready:7:${k}`));
    expect(events[1].payload).toMatchObject({ detail: expect.stringMatching(/^Round 1: \w+ vs \w+$/), teams: expect.any(Array) });
  });

  it('no match_ready for a bye, nor for a match still waiting for a team', () => {
    const after = bracket([1, 2, 3]);
    const events = tournamentEvents(change([], after));
    const ready = events.filter((e) => e.type === 'tournament.match_ready');
    expect(ready).toHaveLength(1);
    const readyMatch = after.find((m) => `tournament.match_ready:7:${m.key}` === ready[0].key)!;
    expect(readyMatch.homeTeamId).not.toBeNull();
    expect(readyMatch.awayTeamId).not.toBeNull();
  });

  it('a result emits only the matches it makes ready, then completed with the champion', () => {
    const start = bracket([1, 2, 3, 4]);
    const [first, second] = readyKeys(start);
    const one = win(start, first!);
    expect(tournamentEvents(change(start, one))).toEqual([]);
    const two = win(one, second!);
    const finalEvents = tournamentEvents(change(one, two));
    expect(finalEvents).toHaveLength(1);
    expect(finalEvents[0]).toMatchObject({ type: 'tournament.match_ready', payload: { teams: expect.any(Array) } });
    const finalKey = readyKeys(two)[0]!;
    const done = win(two, finalKey);
    const winner = done.find((m) => m.key === finalKey)!.winnerTeamId!;
    expect(tournamentEvents(change(two, done, winner))).toEqual([
      { type: 'tournament.completed', key: 'tournament.completed:7', payload: { tournament_id: 7, name: 'Sunday Cup', format: 'ultiduo', kind: 'single_elimination', champion: names[winner], detail: `Winner: ${names[winner]}` } },
    ]);
  });

  it('the same state again produces no match_ready (and the keys would dedupe it anyway)', () => {
    const start = bracket([1, 2, 3, 4]);
    expect(tournamentEvents(change(start, start))).toEqual([]);
  });

  it('reads as a Discord message with the teams and a link to the tournament', () => {
    const [, ready] = tournamentEvents(change([], bracket([1, 2])));
    const message = discordMessage(ready!, 'https://pugs.example.org');
    expect(message.content).toMatch(/^Match ready in Sunday Cup: (Froyotech vs Ascent|Ascent vs Froyotech) https:\/\/pugs\.example\.org\/api\/tournaments\/7$/);
    expect(message.embeds[0]).toMatchObject({ title: 'Sunday Cup', url: 'https://pugs.example.org/api/tournaments/7' });
    expect(message.embeds[0].fields).toEqual(expect.arrayContaining([{ name: 'Format', value: 'ultiduo', inline: true }, { name: 'Match', value: expect.stringContaining(' vs '), inline: false }]));
  });
});
