import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyLobbyCommand, createLobby, type Actor, type LobbyState } from '../../../src/domain/lobby';
import type { Outcome } from '../../../src/domain/domain-error';
import { backoffMs, DEFAULT_RETRY_POLICY, nextStep } from '../../../src/domain/notifications/delivery-policy';
import { DISCORD_LIMITS, discordMessage, embedLength } from '../../../src/domain/notifications/discord-message';
import { lobbyEvents, lobbyNotice, type NotificationEvent } from '../../../src/domain/notifications/notification-event';
import { checkWebhookUrl } from '../../../src/domain/notifications/webhook-url';
import { DomainError } from '../../../src/domain/domain-error';

const NOW = 1_700_000_000_000;

describe('the back-off', () => {
  it('doubles per failure from the base, capped, with at least half of each step fixed', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1_000, maxDelayMs: 60_000 };
    expect([1, 2, 3, 4].map((n) => backoffMs(n, policy, 0))).toEqual([500, 1_000, 2_000, 4_000]);
    expect([1, 2, 3, 4].map((n) => backoffMs(n, policy, 0.999999))).toEqual([1_000, 2_000, 4_000, 8_000]);
    expect(backoffMs(20, policy, 0.5)).toBe(45_000);
  });

  it('fails the delivery on the tenth failed try, not before', () => {
    const retryable = { kind: 'retryable', status: 503, error: 'down' } as const;
    expect(nextStep(retryable, 8, NOW, DEFAULT_RETRY_POLICY, 0)).toMatchObject({ step: 'retry', failures: 9 });
    expect(nextStep(retryable, 9, NOW, DEFAULT_RETRY_POLICY, 0)).toMatchObject({ step: 'fail', failures: 10 });
  });

  it('waits a 429 out without counting it as a failure, disables on 404 and fails other 4xx at once', () => {
    expect(nextStep({ kind: 'rate_limited', status: 429, retryAfterMs: 1_500 }, 3, NOW, DEFAULT_RETRY_POLICY, 0)).toEqual({ step: 'wait', webhookPauseUntil: NOW + 1_500 });
    expect(nextStep({ kind: 'gone', status: 404, error: 'Unknown Webhook' }, 0, NOW, DEFAULT_RETRY_POLICY, 0)).toMatchObject({ step: 'disable_webhook' });
    expect(nextStep({ kind: 'rejected', status: 400, error: 'Invalid Form Body' }, 0, NOW, DEFAULT_RETRY_POLICY, 0)).toMatchObject({ step: 'fail', failures: 1 });
  });
});

describe('lobby events', () => {
  const actor = (id: number): Actor => ({
    id, profile: { id, platform_id: String(id), username: `p${id}`, avatar_url: null, elo: 1000, name_color: null, profile_frame: null },
    isAdmin: false, banned: false, currentLobby: null,
  });
  const ok = (outcome: Outcome<LobbyState, unknown>): LobbyState => {
    if (!outcome.ok) throw outcome.error;
    return outcome.state;
  };
  const keys = (state: LobbyState) => lobbyEvents(state).map((e) => e.key);

  it('name a gathering lobby "created", and ask for players once two places or fewer are free', () => {
    let state = ok(createLobby({ code: 'AB12', format: 'ultiduo', name: 'Duo' }, actor(1), NOW));
    expect(keys(state)).toEqual(['lobby.created:AB12']);
    state = ok(applyLobbyCommand(state, { type: 'join' }, actor(2), NOW));
    expect(keys(state)).toEqual(['lobby.created:AB12', 'lobby.needs_players:AB12']);
    expect(lobbyEvents(state)[1].payload).toMatchObject({ name: 'Duo', format: 'ultiduo', players: 2, slots_total: 4, players_needed: 2 });
    state = ok(applyLobbyCommand(state, { type: 'join' }, actor(3), NOW));
    expect(lobbyNotice(state).players_needed).toBe(1);
    expect(keys(state)).toContain('lobby.needs_players:AB12');
  });

  it('carry the score of an ended lobby', () => {
    const state = { ...ok(createLobby({ code: 'CD34', format: 'ultiduo' }, actor(1), NOW)), phase: 'ended' as const, scoreRed: 5, scoreBlu: 2 };
    expect(lobbyEvents(state)).toMatchObject([{ type: 'lobby.ended', key: 'lobby.ended:CD34', payload: { score: { red: 5, blu: 2 } } }]);
  });
});

describe('Discord messages', () => {
  const event = (name: string, body = ''): NotificationEvent[] => [
    { type: 'lobby.needs_players', key: 'k', payload: { code: 'AB12', name, format: '6v6', map: null, region: null, players: 10, slots_total: 12, players_needed: 2, score: null } },
    { type: 'announcement.published', key: 'a', payload: { id: 1, title: name, body, level: 'info', starts_at: new Date(NOW).toISOString() } },
    { type: 'tournament.match_ready', key: 't', payload: { tournament_id: 1, name, detail: body } },
  ];

  it('stay within the content, embed and total limits whatever the text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 5_000, unit: 'grapheme' }), fc.string({ maxLength: 9_000 }), (name, body) => {
        for (const e of event(name, body)) {
          const message = discordMessage(e, 'https://pugs.example.org');
          expect(Array.from(message.content).length).toBeLessThanOrEqual(DISCORD_LIMITS.content);
          expect(message.embeds.length).toBeLessThanOrEqual(DISCORD_LIMITS.embeds);
          for (const embed of message.embeds) {
            expect(Array.from(embed.title).length).toBeLessThanOrEqual(DISCORD_LIMITS.title);
            expect(Array.from(embed.description ?? '').length).toBeLessThanOrEqual(DISCORD_LIMITS.description);
            expect(embed.fields.every((f) => f.value.length > 0 && Array.from(f.value).length <= DISCORD_LIMITS.fieldValue)).toBe(true);
            expect(embedLength(embed)).toBeLessThanOrEqual(DISCORD_LIMITS.embedTotal);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('never let a lobby name ping anyone', () => {
    expect(discordMessage(event('@everyone come')[0], 'https://x.org').allowed_mentions).toEqual({ parse: [] });
  });
});

describe('webhook URLs', () => {
  const origins = ['https://discord.com', 'https://discordapp.com'];
  it('must have an allowed origin exactly, not merely start with its text', () => {
    expect(checkWebhookUrl('https://discord.com/api/webhooks/1/tok3n', origins)).toEqual({ host: 'discord.com', last4: 'ok3n' });
    for (const bad of ['https://discord.com.evil.net/api/webhooks/1/x', 'https://discord.com:8443/api/webhooks/1/x', 'https://user:pw@discord.com/api/webhooks/1/x', 'https://discord.com/']) {
      expect(checkWebhookUrl(bad, origins), bad).toBeInstanceOf(DomainError);
    }
  });
});
