import type { AnnouncementNotice, LobbyNotice, NotificationEvent, TournamentNotice } from './notification-event';

/** Discord's execute-webhook body, within its documented limits (see DISCORD_LIMITS). */
export interface DiscordMessage {
  content: string;
  embeds: DiscordEmbed[];
  /** Nothing a user typed (a lobby name, an announcement) may ping @everyone or a role. */
  allowed_mentions: { parse: [] };
}

export interface DiscordEmbed {
  title: string;
  description?: string;
  url?: string;
  color: number;
  fields: Array<{ name: string; value: string; inline: boolean }>;
  footer?: { text: string };
  timestamp?: string;
}

/** Discord's message and embed limits (developer docs, "Embed Limits"). */
export const DISCORD_LIMITS = {
  content: 2000, embeds: 10, title: 256, description: 4096, fields: 25, fieldName: 256, fieldValue: 1024, footer: 2048, embedTotal: 6000,
} as const;

const COLORS = { lobby: 0x3b82f6, needs: 0xf59e0b, live: 0x22c55e, ended: 0x6b7280, tournament: 0xa855f7, announcement: 0xef4444 };

/** Cuts to `max` characters (code points, so a cut never splits an emoji), marking the cut. */
export function clip(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join('')}…`;
}

/**
 * The message for one event: a line of content (what a phone notification shows) and one embed
 * with the details people look for. `publicUrl` is where the lobby pages are (PUBLIC_URL).
 */
export function discordMessage(event: NotificationEvent, publicUrl: string): DiscordMessage {
  const { content, embed } = compose(event, publicUrl);
  return { content: clip(content, DISCORD_LIMITS.content), embeds: [withinLimits(embed)], allowed_mentions: { parse: [] } };
}

function compose(event: NotificationEvent, publicUrl: string): { content: string; embed: DiscordEmbed } {
  switch (event.type) {
    case 'lobby.created':
      return lobbyMessage(event.payload, publicUrl, `New ${event.payload.format} lobby: ${event.payload.name}`, COLORS.lobby);
    case 'lobby.needs_players': {
      const n = event.payload.players_needed;
      return lobbyMessage(event.payload, publicUrl, `${event.payload.name} needs ${n} more player${n === 1 ? '' : 's'}`, COLORS.needs);
    }
    case 'lobby.live':
      return lobbyMessage(event.payload, publicUrl, `${event.payload.name} is live`, COLORS.live);
    case 'lobby.ended': {
      const score = event.payload.score;
      return lobbyMessage(event.payload, publicUrl, `${event.payload.name} ended${score ? ` ${score.red}:${score.blu}` : ''}`, COLORS.ended);
    }
    case 'tournament.started':
      return tournamentMessage(event.payload, publicUrl, `Tournament started: ${event.payload.name}`);
    case 'tournament.match_ready':
      return tournamentMessage(event.payload, publicUrl, `Match ready in ${event.payload.name}${event.payload.teams?.length === 2 ? `: ${event.payload.teams[0]} vs ${event.payload.teams[1]}` : ''}`);
    case 'tournament.completed':
      return tournamentMessage(event.payload, publicUrl, `Tournament completed: ${event.payload.name}${event.payload.champion ? `, won by ${event.payload.champion}` : ''}`);
    case 'announcement.published':
      return announcementMessage(event.payload);
  }
}

function lobbyMessage(lobby: LobbyNotice, publicUrl: string, headline: string, color: number): { content: string; embed: DiscordEmbed } {
  const url = `${publicUrl}/lobby/${encodeURIComponent(lobby.code)}`;
  const fields = [
    { name: 'Format', value: lobby.format, inline: true },
    { name: 'Map', value: lobby.map ?? 'voting', inline: true },
    { name: 'Players', value: `${lobby.players}/${lobby.slots_total}`, inline: true },
  ];
  if (lobby.score === null && lobby.players_needed > 0) fields.push({ name: 'Players needed', value: String(lobby.players_needed), inline: true });
  if (lobby.region) fields.push({ name: 'Region', value: lobby.region, inline: true });
  if (lobby.score) fields.push({ name: 'Score', value: `RED ${lobby.score.red} : ${lobby.score.blu} BLU`, inline: false });
  return {
    content: `${headline} ${url}`,
    embed: { title: lobby.name, url, color, fields, footer: { text: `Lobby ${lobby.code}` } },
  };
}

function tournamentMessage(t: TournamentNotice, publicUrl: string, headline: string): { content: string; embed: DiscordEmbed } {
  const url = `${publicUrl}/api/tournaments/${t.tournament_id}`;
  const fields = t.format ? [{ name: 'Format', value: t.format, inline: true }] : [];
  if (t.kind) fields.push({ name: 'Bracket', value: t.kind.replace(/_/g, ' '), inline: true });
  if (t.champion) fields.push({ name: 'Champion', value: t.champion, inline: true });
  else if (t.teams && t.teams.length > 0) fields.push({ name: t.match ? 'Match' : 'Teams', value: t.teams.join(t.match ? ' vs ' : ', '), inline: false });
  return {
    content: `${headline} ${url}`,
    embed: { title: t.name, url, description: t.detail, color: COLORS.tournament, fields, footer: { text: `Tournament ${t.tournament_id}` } },
  };
}

function announcementMessage(a: AnnouncementNotice): { content: string; embed: DiscordEmbed } {
  return {
    content: `Announcement: ${a.title}`,
    embed: { title: a.title, description: a.body || undefined, color: COLORS.announcement, fields: [], footer: { text: a.level }, timestamp: a.starts_at },
  };
}

/** Every text of the embed cut to its own limit, then the description shortened to keep the total under 6000. */
function withinLimits(embed: DiscordEmbed): DiscordEmbed {
  const fields = embed.fields.slice(0, DISCORD_LIMITS.fields).map((f) => ({
    name: clip(f.name, DISCORD_LIMITS.fieldName),
    value: clip(f.value || '-', DISCORD_LIMITS.fieldValue),
    inline: f.inline,
  }));
  const clipped: DiscordEmbed = {
    ...embed,
    title: clip(embed.title || '-', DISCORD_LIMITS.title),
    fields,
    ...(embed.description === undefined ? {} : { description: clip(embed.description, DISCORD_LIMITS.description) }),
    ...(embed.footer ? { footer: { text: clip(embed.footer.text, DISCORD_LIMITS.footer) } } : {}),
  };
  const total = embedLength(clipped);
  if (total > DISCORD_LIMITS.embedTotal && clipped.description !== undefined) {
    const keep = Array.from(clipped.description).length - (total - DISCORD_LIMITS.embedTotal);
    clipped.description = clip(clipped.description, Math.max(1, keep));
  }
  return clipped;
}

/** What Discord counts toward the 6000: title, description, field names and values, footer. */
export function embedLength(embed: DiscordEmbed): number {
  const len = (s: string | undefined) => (s === undefined ? 0 : Array.from(s).length);
  return len(embed.title) + len(embed.description) + len(embed.footer?.text) + embed.fields.reduce((n, f) => n + len(f.name) + len(f.value), 0);
}
