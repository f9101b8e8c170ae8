import { connect } from 'node:net';
import { Rcon } from 'rcon-client';
import { queryGameServerInfo, queryGameServerPlayer } from 'steam-server-query';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGameServerSimulator, type RunningSimulator } from '../../../src/integrations/game-server-simulator/game-server-simulator';
import { RconConnection, RconError, rconRun } from '../../../src/integrations/source-rcon/rcon-client';
import { encodeRconPacket, RconPacketReader, SERVERDATA_EXECCOMMAND, SERVERDATA_AUTH, SERVERDATA_RESPONSE_VALUE, type RconPacket } from '../../../src/integrations/source-rcon/rcon-packet';
import { queryInfo, queryPlayers } from '../../../src/integrations/source-query/a2s-client';

let sim: RunningSimulator;
const password = 'correct horse';

beforeAll(async () => {
  sim = await startGameServerSimulator({ map: 'cp_process_final', rconPassword: password, hostname: 'sim test' });
});
afterAll(() => sim?.close());

async function rcon(): Promise<Rcon> {
  return Rcon.connect({ host: '127.0.0.1', port: sim.rconPort, password, timeout: 2_000 });
}

describe('game-server simulator', () => {
  it('answers A2S_INFO through the challenge handshake to a real query client', async () => {
    const info = await queryGameServerInfo(sim.connectAddress, 1, 2_000);
    expect(info).toMatchObject({ name: 'sim test', map: 'cp_process_final', game: 'Team Fortress', appId: 440, players: 0, maxPlayers: 24 });
  });

  it('refuses a wrong RCON password the way srcds does', async () => {
    await expect(Rcon.connect({ host: '127.0.0.1', port: sim.rconPort, password: 'wrong', timeout: 2_000 })).rejects.toThrow(/Authentication failed/);
    await expect(RconConnection.open({ host: '127.0.0.1', port: sim.rconPort, password: 'wrong' })).rejects.toMatchObject({ failure: 'auth' });
  });

  it('changes the map A2S reports when RCON says changelevel', async () => {
    const client = await rcon();
    await client.send('changelevel koth_product_final');
    await client.end();
    expect((await queryGameServerInfo(sim.connectAddress, 1, 2_000)).map).toBe('koth_product_final');
  });

  it('counts players in A2S_INFO and lists them in A2S_PLAYER, and kickid removes one', async () => {
    const client = await rcon();
    const joined = await client.send('sim_join STEAM_0:1:1234 alice');
    await client.send('sim_join STEAM_0:1:5678 bob');
    expect((await queryGameServerInfo(sim.connectAddress, 1, 2_000)).players).toBe(2);
    const listed = await queryGameServerPlayer(sim.connectAddress, 1, 2_000);
    expect(listed.players.map((p) => p.name)).toEqual(['alice', 'bob']);
    const userId = /userid (\d+)/.exec(joined)![1];
    await client.send(`kickid ${userId}`);
    await client.end();
    expect((await queryPlayers({ host: '127.0.0.1', port: sim.queryPort })).map((p) => p.name)).toEqual(['bob']);
  });

  it('reports the password and preset set over RCON', async () => {
    const [, , shown, info] = await rconRun({ host: '127.0.0.1', port: sim.rconPort, password }, ['sv_password "hunter22"', 'exec etf2l_6v6', 'sv_password', 'status']);
    expect(shown).toContain('***PROTECTED***');
    expect(sim.game.preset).toBe('etf2l_6v6');
    expect(info).toContain(`map     : ${sim.game.map}`);
    expect((await queryInfo({ host: '127.0.0.1', port: sim.queryPort })).passworded).toBe(true);
  });

  it('splits a long answer over several packets and ends it with the mirrored empty packet', async () => {
    const socket = connect({ host: '127.0.0.1', port: sim.rconPort });
    const reader = new RconPacketReader();
    const received: RconPacket[] = [];
    let wake: () => void = () => undefined;
    socket.on('data', (chunk) => {
      received.push(...reader.push(chunk));
      wake();
    });
    const until = (done: () => boolean) => new Promise<void>((resolve) => {
      wake = () => done() && resolve();
      wake();
    });
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(encodeRconPacket({ id: 1, type: SERVERDATA_AUTH, body: password }));
    await until(() => received.some((p) => p.id === 1 && p.type === 2));
    socket.write(encodeRconPacket({ id: 7, type: SERVERDATA_EXECCOMMAND, body: 'cvarlist' }));
    socket.write(encodeRconPacket({ id: 8, type: SERVERDATA_RESPONSE_VALUE, body: '' }));
    await until(() => received.filter((p) => p.id === 8).length === 2);
    socket.destroy();
    const parts = received.filter((p) => p.id === 7);
    expect(parts.length).toBeGreaterThan(1);
    expect(parts.every((p) => Buffer.byteLength(p.body) <= 4096)).toBe(true);
    expect(received.findIndex((p) => p.id === 8)).toBeGreaterThan(received.lastIndexOf(parts[parts.length - 1]));
    const whole = await rconRun({ host: '127.0.0.1', port: sim.rconPort, password }, ['cvarlist']);
    expect(whole[0]).toBe(parts.map((p) => p.body).join(''));
    expect(whole[0]).toMatch(/400 total convars\/concommands\n$/);
  });

  it('times out against a port where nothing answers RCON', async () => {
    const silent = (await import('node:net')).createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', () => resolve()));
    const port = (silent.address() as { port: number }).port;
    const error = await RconConnection.open({ host: '127.0.0.1', port, password, timeoutMs: 200 }).catch((e) => e);
    expect(error).toBeInstanceOf(RconError);
    expect(error.failure).toBe('timeout');
    silent.close();
  });
});
