import type { LobbyDetail } from '../../schema/lobby';
import type { LobbyPhase } from '../domain/lobby';
import { conflict, forbidden, notFound, upstreamTimeout } from '../domain/domain-error';
import { chosenMap, LOG_UPLOAD_TIMEOUT_MS, logStatusAt, setupCommands, type LogStatus } from '../domain/servers/match-setup';
import type { GameServerLink } from './game-server-link';
import type { LobbyLogRepository } from './lobby-log-repository';
import type { ReservationRecord } from './reservation-record';
import type { ReservationRepository } from './reservation-repository';

export interface LobbyServerDeps {
  repo: ReservationRepository;
  logs: LobbyLogRepository;
  lobbies: { detail(code: string): Promise<LobbyDetail | null> };
  link: GameServerLink;
  clock: () => number;
  /** Queues the log-upload timeout on the durable schedule. */
  wakeLogTimeout(code: string, uploadingAt: number, at: number): Promise<void>;
  logger: { warn(obj: object, msg: string): void };
  rconTimeoutMs?: number;
  checkTimeoutMs?: number;
}

export interface Actor {
  id: number;
  isAdmin: boolean;
}

export const LOG_TIMEOUT_QUEUE = 'servers:log-timeout';

/** The lobby routes that need the lobby's reserved game server: RCON, health, match log. */
export class LobbyServerService {
  /** The phases whose lobby updates may configure a game server: the feed hands it no others. */
  static readonly SETUP_PHASES: readonly LobbyPhase[] = ['live'];

  constructor(private readonly deps: LobbyServerDeps) {}

  async rconExec(actor: Actor, code: string, command: string): Promise<{ output: string }> {
    const { lobby, reservation } = await this.hostsServer(actor, code);
    const now = this.deps.clock();
    try {
      const [output] = await this.rcon(reservation, [command]);
      await this.deps.logs.audit({ reservationId: reservation.id, lobbyCode: code, userId: actor.id, command, output, outcome: 'ok', now });
      return { output };
    } catch (error) {
      await this.deps.logs.audit({ reservationId: reservation.id, lobbyCode: lobby.code, userId: actor.id, command, output: null, outcome: 'no_answer', now });
      throw upstreamTimeout(`the game server did not answer: ${(error as Error).message}`);
    }
  }

  async checkServer(code: string): Promise<{ online: boolean; players: number; max_players: number; map: string | null }> {
    const lobby = await this.lobby(code);
    const reservation = lobby.reservation_id ? await this.deps.repo.byId(lobby.reservation_id) : null;
    const offline = { online: false, players: 0, max_players: 0, map: null };
    if (!reservation || reservation.status !== 'active' || !reservation.connectAddress) return offline;
    const info = await this.deps.link.info(reservation.connectAddress, this.deps.checkTimeoutMs ?? 1_000);
    return info ? { online: true, players: info.players, max_players: info.maxPlayers, map: info.map } : offline;
  }

  /** Asks the in-game plugin to upload the match log; the log status is `uploading` until it reports. */
  async fetchLog(actor: Actor, code: string): Promise<{ ok: true }> {
    const { reservation } = await this.hostsServer(actor, code);
    const now = this.deps.clock();
    const row = await this.deps.logs.markUploading(code, reservation.id, now);
    if (row.status === 'uploading') await this.deps.wakeLogTimeout(code, now, now + LOG_UPLOAD_TIMEOUT_MS);
    try {
      await this.rcon(reservation, ['sm_league_upload_log']);
    } catch (error) {
      // The window stays open: the plugin may still report, or the host may submit the log.
      throw upstreamTimeout(`the game server did not answer: ${(error as Error).message}`);
    }
    return { ok: true };
  }

  async submitLog(actor: Actor, code: string, logUrl: string): Promise<{ ok: true }> {
    const lobby = await this.lobby(code);
    if (lobby.host_id !== actor.id && !actor.isAdmin) throw forbidden('only the host or an admin can submit the log');
    if (!lobby.reservation_id) throw conflict('this lobby has no game server attached');
    await this.deps.logs.markReady(code, lobby.reservation_id, logUrl, null, this.deps.clock());
    return { ok: true };
  }

  async logStatus(code: string): Promise<{ status: LogStatus; log_url: string | null; demo_url: string | null }> {
    const row = await this.deps.logs.get(code);
    if (!row) {
      await this.lobby(code);
      return { status: 'pending', log_url: null, demo_url: null };
    }
    return { status: logStatusAt(row, this.deps.clock()), log_url: row.logUrl, demo_url: row.demoUrl };
  }

  async logTimedOut(member: string): Promise<void> {
    const [code, at] = member.split('|');
    await this.deps.logs.failUpload(code, Number(at), this.deps.clock());
  }

  /**
   * A lobby update seen on the lobby feed (every instance sees each one): when a pinned lobby goes
   * live, the one instance that opens its log row configures the server.
   */
  async lobbyUpdated(lobby: LobbyDetail): Promise<void> {
    if (!LobbyServerService.SETUP_PHASES.includes(lobby.phase) || !lobby.reservation_id) return;
    if (!(await this.deps.logs.openOnce(lobby.code, lobby.reservation_id, this.deps.clock()))) return;
    const reservation = await this.deps.repo.byId(lobby.reservation_id);
    if (!reservation || reservation.status !== 'active') return;
    try {
      await this.rcon(reservation, setupCommands(chosenMap(lobby), reservation.configPreset, reservation.serverPassword));
    } catch (error) {
      this.deps.logger.warn({ err: error, lobby: lobby.code, reservation: reservation.id }, 'configuring the game server failed');
    }
  }

  private rcon(reservation: ReservationRecord, commands: string[]): Promise<string[]> {
    return this.deps.link.rcon(reservation.rconAddress!, reservation.rconPassword, commands, this.deps.rconTimeoutMs ?? 3_000);
  }

  private async lobby(code: string): Promise<LobbyDetail> {
    const lobby = await this.deps.lobbies.detail(code);
    if (!lobby) throw notFound('lobby not found');
    return lobby;
  }

  /** The lobby's active server, for its host or an admin; 409 when there is none. */
  private async hostsServer(actor: Actor, code: string): Promise<{ lobby: LobbyDetail; reservation: ReservationRecord }> {
    const lobby = await this.lobby(code);
    if (lobby.host_id !== actor.id && !actor.isAdmin) throw forbidden('only the host or an admin can do this');
    const reservation = lobby.reservation_id ? await this.deps.repo.byId(lobby.reservation_id) : null;
    if (!reservation || reservation.status !== 'active' || !reservation.rconAddress) throw conflict('this lobby has no active game server attached');
    return { lobby, reservation };
  }
}
