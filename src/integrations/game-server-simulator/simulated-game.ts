import { CONFIG_PRESETS as PRESETS } from '../../domain/servers/config-presets';

/**
 * The state of one simulated TF2 server and the console commands that change it. The RCON and
 * A2S listeners only carry bytes; everything a command does happens here, so both protocols see
 * one consistent server.
 */
export interface SimulatedPlayer {
  userId: number;
  name: string;
  steamId: string;
  joinedAt: number;
}

export interface RosterEntry {
  platform_id: string;
  username: string;
  team: string;
  class: string | null;
}

/** What the game's league plugin does when the console asks it (see simulated-plugin.ts). */
export interface PluginHooks {
  syncRoster(): Promise<RosterEntry[]>;
  uploadLog(log: string): Promise<string>;
}


export class SimulatedGame {
  map: string;
  password = '';
  preset: string | null = null;
  readonly maxPlayers = 24;
  readonly hostname: string;
  readonly players: SimulatedPlayer[] = [];
  roster: RosterEntry[] = [];
  readonly log: string[] = [];
  /** Every command received, in order, as the console would echo it. */
  readonly history: string[] = [];
  private nextUserId = 2;

  constructor(options: { map: string; hostname: string; password?: string }, private readonly clock: () => number, private readonly plugin?: PluginHooks) {
    this.map = options.map;
    this.hostname = options.hostname;
    this.password = options.password ?? '';
    this.logLine(`Loading map "${this.map}"`);
  }

  /** Runs one console line and returns what srcds would print. */
  async execute(line: string): Promise<string> {
    this.history.push(line);
    const outputs: string[] = [];
    // The console runs `a; b` as two commands.
    for (const command of line.split(';').map((c) => c.trim()).filter(Boolean)) outputs.push(await this.executeOne(command));
    return outputs.join('');
  }

  join(steamId: string, name: string): SimulatedPlayer {
    const player = { userId: this.nextUserId++, name, steamId, joinedAt: this.clock() };
    this.players.push(player);
    this.logLine(`"${name}<${player.userId}><${steamId}><>" entered the game`);
    return player;
  }

  private async executeOne(command: string): Promise<string> {
    const [name, ...args] = command.split(/\s+/);
    const rest = command.slice(name.length).trim();
    switch (name.toLowerCase()) {
      case 'status':
        return this.status();
      case 'changelevel':
        if (!args[0]) return 'Usage: changelevel <map>\n';
        this.map = args[0];
        this.logLine(`Loading map "${this.map}"`);
        return '';
      case 'sv_password':
        if (args.length === 0) return `"sv_password" = "${this.password ? '***PROTECTED***' : ''}"\n`;
        this.password = unquote(rest);
        return '';
      case 'exec':
        if (!args[0]) return 'Usage: exec <filename>\n';
        if (!(PRESETS as readonly string[]).includes(args[0].replace(/\.cfg$/, ''))) return `exec: couldn't exec ${args[0]}\n`;
        this.preset = args[0].replace(/\.cfg$/, '');
        return `Executing ${this.preset}.cfg\n`;
      case 'kickid':
        return this.kick(Number(args[0]));
      case 'tf_bot_add': {
        const count = Math.max(1, Math.min(Number(args[0] ?? 1) || 1, this.maxPlayers - this.players.length));
        for (let i = 0; i < count; i++) this.join('BOT', `Bot${this.nextUserId}`);
        return '';
      }
      case 'sim_join':
        if (!args[0]) return 'Usage: sim_join <steamid> <name>\n';
        return `userid ${this.join(args[0], args.slice(1).join(' ') || 'player').userId}\n`;
      case 'say':
        this.logLine(`"Console<0><Console><Console>" say "${unquote(rest)}"`);
        return '';
      case 'hostname':
        return `"hostname" = "${this.hostname}"\n`;
      case 'cvarlist':
        return this.cvarlist();
      case 'sm_league_sync_roster':
        if (!this.plugin) return 'Unknown command "sm_league_sync_roster"\n';
        this.roster = await this.plugin.syncRoster();
        return `[League] roster: ${this.roster.length} players\n`;
      case 'sm_league_roster':
        return this.roster.map((p) => `${p.platform_id} ${p.team} ${p.class ?? '-'} ${p.username}\n`).join('');
      case 'sm_league_upload_log':
        if (!this.plugin) return 'Unknown command "sm_league_upload_log"\n';
        return `[League] log uploaded: ${await this.plugin.uploadLog(this.log.join('\n'))}\n`;
      default:
        return `Unknown command "${name}"\n`;
    }
  }

  private kick(userId: number): string {
    const index = this.players.findIndex((p) => p.userId === userId);
    if (index < 0) return `kickid: no user with id ${userId}\n`;
    const [player] = this.players.splice(index, 1);
    this.logLine(`"${player.name}<${player.userId}><${player.steamId}><>" disconnected (reason "Kicked by Console")`);
    return '';
  }

  private status(): string {
    const header = [
      `hostname: ${this.hostname}`,
      'version : 8835751/24 8835751 secure',
      `map     : ${this.map} at: 0 x, 0 y, 0 z`,
      'tags    : league',
      `players : ${this.players.length} humans, 0 bots (${this.maxPlayers} max)`,
      'edicts  : 426 used of 2048 max',
      '# userid name                uniqueid            connected ping loss state  adr',
    ];
    const rows = this.players.map((p) => {
      const seconds = Math.floor((this.clock() - p.joinedAt) / 1000);
      const connected = `${String(Math.floor(seconds / 60)).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
      return `#     ${p.userId} "${p.name}" ${p.steamId} ${connected} 50 0 active 127.0.0.1:27005`;
    });
    return `${[...header, ...rows].join('\n')}\n`;
  }

  /** Long on purpose, like the real one: its answer spans several RCON packets. */
  private cvarlist(): string {
    const lines: string[] = [];
    for (let i = 0; i < 400; i++) lines.push(`sim_cvar_${String(i).padStart(3, '0')}                : ${i} : , "sv" : simulated console variable number ${i}`);
    lines.push('--------------', '400 total convars/concommands');
    return `${lines.join('\n')}\n`;
  }

  private logLine(text: string): void {
    const d = new Date(this.clock());
    const pad = (n: number) => String(n).padStart(2, '0');
    const stamp = `${pad(d.getUTCMonth() + 1)}/${pad(d.getUTCDate())}/${d.getUTCFullYear()} - ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;
    this.log.push(`L ${stamp}: ${text}`);
  }
}

function unquote(text: string): string {
  return text.replace(/^"(.*)"$/, '$1');
}
