import { afterAll, beforeAll, expect, it } from 'vitest';
import { LobbyRecordRepository } from '../../src/db/lobby-record-repository';
import type { LobbyRecords } from '../../src/engine/engine-ports';
import { LobbyDocuments } from '../../src/engine/lobby-documents';
import { MemoryLiveStore } from '../../src/live/memory-live-store';
import { newLobby } from '../unit/lobby/lobby-fixtures';
import { createTestDatabase, type TestDatabase } from '../support/test-database';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(() => t?.drop());

it('writes a window of many lobbies behind in statements of a few lobbies each, every lobby stored', async () => {
  const repository = new LobbyRecordRepository(t.db);
  const statements: number[] = [];
  // The real repository, with each statement's size noted on the way.
  const records: LobbyRecords = {
    save: (doc, at) => repository.save(doc, at),
    saveMany: (docs, at) => (statements.push(docs.length), repository.saveMany(docs, at)),
    load: (code) => repository.load(code),
    loadOpen: () => repository.loadOpen(),
  };
  const documents = new LobbyDocuments(new MemoryLiveStore(), records, { error: () => undefined, warn: () => undefined });
  const codes = Array.from({ length: 20 }, (_, i) => `WB${String(i).padStart(2, '0')}`);

  for (const code of codes) documents.saveSoon({ ...newLobby(), code, version: 3 });
  await documents.flush();

  expect(statements).toEqual([8, 8, 4]);
  const stored = await Promise.all(codes.map((code) => repository.load(code)));
  expect(stored.map((record) => [record?.code, record?.version])).toEqual(codes.map((code) => [code, 3]));
});
