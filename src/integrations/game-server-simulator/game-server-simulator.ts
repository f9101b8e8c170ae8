import { machineTime } from '../../clock/machine-time';
import type { Socket } from 'node:dgram';
import type { Server } from 'node:net';
import { listenA2s } from './a2s-listener';
import { listenRcon } from './rcon-listener';
import { SimulatedGame } from './simulated-game';
import { SimulatedPlugin, type PluginLink } from './simulated-plugin';

export interface SimulatorOptions {
  host?: string;
  map: string;
  rconPassword: string;
  serverPassword?: string;
  hostname?: string;
  /** Game port: A2S listens here (UDP), RCON on the same number over TCP, as srcds does. 0 = any free pair. */
  port?: number;
  clock?: () => number;
  /** Present when the league's plugin should be loaded (it needs the league's URL and secret). */
  plugin?: PluginLink;
}

export interface RunningSimulator {
  game: SimulatedGame;
  host: string;
  /** The UDP query port ("connect" address port). */
  queryPort: number;
  rconPort: number;
  connectAddress: string;
  close(): Promise<void>;
}

/**
 * A whole simulated game server on one host: RCON (TCP) and A2S (UDP) over one SimulatedGame,
 * plus the league plugin when linked. srcds answers both protocols on its game port; the
 * simulator tries for that too and falls back to separate ports when the pair is not free.
 */
export async function startGameServerSimulator(options: SimulatorOptions): Promise<RunningSimulator> {
  const host = options.host ?? '127.0.0.1';
  const clock = options.clock ?? machineTime.wall;
  const plugin = options.plugin ? new SimulatedPlugin(options.plugin, host) : undefined;
  await plugin?.start();
  const game = new SimulatedGame(
    { map: options.map, hostname: options.hostname ?? 'League reservation', password: options.serverPassword },
    clock,
    plugin,
  );
  const rconPassword = options.rconPassword;
  let udp: Socket | undefined;
  let tcp: Server | undefined;
  try {
    udp = await listenA2s(
      {
        info: () => ({
          name: game.hostname, map: game.map, folder: 'tf', game: 'Team Fortress', appId: 440,
          players: game.players.length, maxPlayers: game.maxPlayers, bots: 0,
          passworded: game.password !== '', version: '8835751', port: udp?.address().port ?? 0,
        }),
        players: () => game.players.map((p) => ({ name: p.name, score: 0, durationS: (clock() - p.joinedAt) / 1000 })),
      },
      host,
      options.port ?? 0,
    );
    const queryPort = udp.address().port;
    tcp = await listenRcon({ password: () => rconPassword, execute: (c) => game.execute(c) }, host, queryPort).catch(() =>
      listenRcon({ password: () => rconPassword, execute: (c) => game.execute(c) }, host, 0),
    );
    const address = tcp.address();
    const rconPort = typeof address === 'object' && address ? address.port : 0;
    const openTcp = tcp;
    const openUdp = udp;
    let closing: Promise<void> | undefined;
    return {
      game, host, queryPort, rconPort,
      connectAddress: `${host}:${queryPort}`,
      close: () =>
        (closing ??= (async () => {
          await new Promise<void>((resolve) => openTcp.close(() => resolve()));
          await new Promise<void>((resolve) => openUdp.close(() => resolve()));
          await plugin?.close();
        })()),
    };
  } catch (error) {
    udp?.close();
    tcp?.close();
    await plugin?.close();
    throw error;
  }
}
