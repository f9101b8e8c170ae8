import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LobbyRecordRepository, type LobbyDocument } from '../../src/db/lobby-record-repository';
import { createTestDatabase, truncateAll, type TestDatabase } from '../support/test-database';

const doc = (code: string, version: number, phase = 'gathering'): LobbyDocument => ({
  code,
  phase,
  hostId: 7,
  version,
  snapshot: { code, version, teams: { red: [{ index: 0, class: 'medic', user: null }] }, chat: ['hi'] },
});

describe('LobbyRecordRepository', () => {
  let t: TestDatabase;
  let lobbies: LobbyRecordRepository;
  beforeAll(async () => {
    t = await createTestDatabase();
    lobbies = new LobbyRecordRepository(t.db);
  });
  beforeEach(() => truncateAll(t.db));
  afterAll(() => t?.drop());

  it('stores a new lobby and loads back the whole document', async () => {
    expect(await lobbies.save(doc('AB12', 1))).toBe(true);
    expect(await lobbies.load('AB12')).toMatchObject(doc('AB12', 1));
  });

  it('replaces the stored lobby with a newer version', async () => {
    await lobbies.save(doc('AB12', 1));
    expect(await lobbies.save(doc('AB12', 2, 'drafting'))).toBe(true);
    expect(await lobbies.load('AB12')).toMatchObject({ version: 2, phase: 'drafting', snapshot: { version: 2 } });
  });

  it.each([{ stale: 3 }, { stale: 2 }])('ignores a write of version $stale over version 3', async ({ stale }) => {
    await lobbies.save(doc('AB12', 3, 'live'));
    expect(await lobbies.save(doc('AB12', stale, 'drafting'))).toBe(false);
    expect(await lobbies.load('AB12')).toMatchObject({ version: 3, phase: 'live' });
  });

  it('keeps the newest version when many versions race in', async () => {
    const versions = Array.from({ length: 30 }, (_, i) => i + 1).sort(() => 0.5 - Math.random());
    await Promise.all(versions.map((v) => lobbies.save(doc('RACE', v))));
    expect((await lobbies.load('RACE'))?.version).toBe(30);
  });

  it('saves many lobbies in one statement, each only over an older version, and answers the codes it stored', async () => {
    await lobbies.save(doc('OLDER', 1));
    await lobbies.save(doc('NEWER', 5, 'live'));
    const stored = await lobbies.saveMany([doc('FRESH', 1), doc('OLDER', 2, 'drafting'), doc('NEWER', 4)]);
    expect(stored.sort()).toEqual(['FRESH', 'OLDER']);
    expect(await lobbies.load('FRESH')).toMatchObject(doc('FRESH', 1));
    expect(await lobbies.load('OLDER')).toMatchObject({ version: 2, phase: 'drafting' });
    expect(await lobbies.load('NEWER')).toMatchObject({ version: 5, phase: 'live' });
  });

  it('stores a snapshot holding quotes, backslashes, question marks and text beyond ASCII exactly as given', async () => {
    const awkward = { ...doc('QUOTE', 1), snapshot: { code: 'QUOTE', name: `O'Brien's "lobby" \\ C:\\maps ? $1 ?? 🎮 żółw \u2028`, nested: { 'k\'ey': ['\\x00', "it's"] } } };
    expect(await lobbies.saveMany([awkward, doc('PLAIN', 1)])).toHaveLength(2);
    expect((await lobbies.load('QUOTE'))?.snapshot).toEqual(awkward.snapshot);
    expect((await lobbies.load('PLAIN'))?.snapshot).toEqual(doc('PLAIN', 1).snapshot);
  });

  it('saves nothing, without a query, for no lobbies', async () => {
    expect(await lobbies.saveMany([])).toEqual([]);
  });

  it('answers null for an unknown lobby', async () => {
    expect(await lobbies.load('NONE')).toBeNull();
  });

  it('lists only lobbies that are neither ended nor cancelled as open', async () => {
    await lobbies.save(doc('OPEN1', 1, 'gathering'));
    await lobbies.save(doc('LIVE1', 1, 'live'));
    await lobbies.save(doc('DONE1', 1, 'ended'));
    await lobbies.save(doc('GONE1', 1, 'cancelled'));
    expect((await lobbies.loadOpen()).map((l) => l.code).sort()).toEqual(['LIVE1', 'OPEN1']);
  });
});
