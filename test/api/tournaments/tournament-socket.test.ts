import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAllClients, connect } from '../../realtime/support/socket-client';
import { startAdminWorld, type AdminWorld } from '../admin/admin-fixtures';
import { tournamentBody } from './tournament-fixtures';

let world: AdminWorld;
beforeAll(async () => {
  world = await startAdminWorld();
}, 60_000);
afterAll(async () => {
  closeAllClients();
  await world?.server.close();
});

/** The socket untyped: tournament events are not in the lobby protocol's types. */
async function watcher(): Promise<any> {
  return (await connect(world.server.url, { cookie: world.admin.cookie })) as any;
}

describe('tournament realtime', () => {
  it('acks a subscription with the tournament and its bracket', async () => {
    const created = (await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody() })).body;
    const socket = await watcher();
    const ack = await socket.emitWithAck('tournament:subscribe', { id: created.id });
    expect(ack).toMatchObject({ tournament: { id: created.id, version: 1 }, bracket: { stages: [] } });
  });

  it('answers 404 to a subscription of an unknown tournament', async () => {
    const socket = await watcher();
    expect(await socket.emitWithAck('tournament:subscribe', { id: 99_999_999 })).toMatchObject({ status: 404 });
  });

  it('sends every change as tournament:update in version order', async () => {
    const created = (await world.asKey('/api/admin/tournaments', { method: 'POST', body: tournamentBody() })).body;
    const socket = await watcher();
    await socket.emitWithAck('tournament:subscribe', { id: created.id });
    const versions: number[] = [];
    const lastArrived = new Promise<void>((resolve) => {
      socket.on('tournament:update', (update: any) => {
        versions.push(update.version);
        if (update.version === 6) resolve();
      });
    });
    for (let i = 0; i < 5; i += 1) {
      await world.asKey(`/api/admin/tournaments/${created.id}`, { method: 'PATCH', body: { name: `Renamed ${i}` } });
    }
    await lastArrived;
    expect(versions).toEqual([...versions].sort((a, b) => a - b));
    expect(new Set(versions).size).toBe(versions.length);
    expect(versions.at(-1)).toBe(6);
  });
});
