import { expect, it } from 'vitest';
import { DomainError } from '../../src/domain/domain-error';
import { lobbyMemberKey } from '../../src/engine/live-keys';
import { callerOf, describeEngine } from './engine-harness';
import { detailOf, gathered } from './lobby-scenario';

const refusal = async (promise: Promise<unknown>): Promise<string> => {
  const error = await promise.then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(DomainError);
  return (error as DomainError).kind;
};

describeEngine('lobby engine', (world) => {
  it('creates a lobby with a six-symbol code, the host as its first free agent, at version 1', async () => {
    const w = world();
    const [host] = await w.users(1);
    const { code, lobby } = await w.engine.create(callerOf(host), {});
    expect(code).toMatch(/^[ABCDEFGHJKLMNPQRSTUVWXYZ23456789]{6}$/);
    expect(lobby).toMatchObject({ code, phase: 'gathering', format: '6v6', host_id: host.id, version: 1 });
    expect(lobby.pool.map((u) => u.id)).toEqual([host.id]);
  });

  it('draws another code when the random one is taken', async () => {
    const w = world();
    const [a, b] = await w.users(2);
    const draws = [new Uint8Array(6).fill(1), new Uint8Array(6).fill(1), new Uint8Array(6).fill(2)];
    const engine = w.makeEngine({ randomBytes: () => draws.shift()! });
    const first = await engine.create(callerOf(a), {});
    const second = await engine.create(callerOf(b), {});
    expect(first.code).toBe('BBBBBB');
    expect(second.code).toBe('CCCCCC');
  });

  it('refuses a reservation id while the caller has no reservations (404)', async () => {
    const w = world();
    const [host] = await w.users(1);
    expect(await refusal(w.engine.create(callerOf(host), { reservation_id: 7 }))).toBe('not_found');
  });

  it('refuses a banned user creating or joining (403)', async () => {
    const w = world();
    const [host, banned] = await w.users(2);
    await w.bans.create({ userId: banned.id, reason: 'test', createdBy: null, at: new Date(w.clock.now - 1000), expiresAt: null });
    const { code } = await w.engine.create(callerOf(host), {});
    expect(await refusal(w.engine.create(callerOf(banned), {}))).toBe('forbidden');
    expect(await refusal(w.engine.command(code, { type: 'join' }, callerOf(banned)))).toBe('forbidden');
  });

  it('keeps a user in at most one open lobby: a second create or a join elsewhere is a conflict', async () => {
    const w = world();
    const [a, b] = await w.users(2);
    const { code } = await w.engine.create(callerOf(a), {});
    await w.engine.create(callerOf(b), {});
    expect(await refusal(w.engine.create(callerOf(a), {}))).toBe('conflict');
    expect(await refusal(w.engine.command((await w.engine.summaries())[1].code, { type: 'join' }, callerOf(a)))).toBe('conflict');
    expect((await w.live.get(lobbyMemberKey(a.id)))?.value).toBe(code);
  });

  it('frees the user for another lobby once they leave', async () => {
    const w = world();
    const [a, b] = await w.users(2);
    const first = await w.engine.create(callerOf(a), {});
    const other = await w.engine.create(callerOf(b), {});
    await w.engine.command(first.code, { type: 'leave' }, callerOf(a));
    await w.engine.command(other.code, { type: 'join' }, callerOf(a));
    expect((await w.live.get(lobbyMemberKey(a.id)))?.value).toBe(other.code);
  });

  it('frees every member of a cancelled lobby', async () => {
    const w = world();
    const g = await gathered(w, 'ultiduo');
    await w.engine.command(g.code, { type: 'cancel' }, callerOf(g.host));
    const entries = await w.live.getMany(g.users.map((u) => lobbyMemberKey(u.id)));
    expect(entries).toEqual(g.users.map(() => null));
    expect(await refusal(w.engine.command(g.code, { type: 'cancel' }, callerOf(g.host)))).toBe('conflict');
  });

  it('admits exactly eleven of twenty users joining a 6v6 at once through two instances, and loses none of them', async () => {
    const w = world();
    const [host, ...joiners] = await w.users(21);
    const { code } = await w.engine.create(callerOf(host), {});
    const results = await Promise.allSettled(
      joiners.map((u, i) => (i % 2 === 0 ? w.engine : w.peer()).command(code, { type: 'join' }, callerOf(u))),
    );
    const admitted = joiners.filter((_, i) => results[i].status === 'fulfilled').map((u) => u.id);
    expect(admitted).toHaveLength(11);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ kind: 'conflict', message: 'lobby is full' });
    const lobby = await detailOf(w, code);
    expect(lobby.pool.map((u) => u.id).sort()).toEqual([host.id, ...admitted].sort());
    expect(lobby.version).toBe(12);
  });

  it('lets a user racing into two lobbies through two instances into exactly one', async () => {
    const w = world();
    const [a, b, racer] = await w.users(3);
    const one = await w.engine.create(callerOf(a), {});
    const two = await w.engine.create(callerOf(b), {});
    const results = await Promise.allSettled([
      w.engine.command(one.code, { type: 'join' }, callerOf(racer)),
      w.peer().command(two.code, { type: 'join' }, callerOf(racer)),
    ]);
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    const inOne = (await detailOf(w, one.code)).pool.some((u) => u.id === racer.id);
    const inTwo = (await detailOf(w, two.code)).pool.some((u) => u.id === racer.id);
    expect(Number(inOne) + Number(inTwo)).toBe(1);
    expect((await w.live.get(lobbyMemberKey(racer.id)))?.value).toBe(inOne ? one.code : two.code);
  });

  it('answers 404 for a lobby that never existed', async () => {
    const w = world();
    const [a] = await w.users(1);
    expect(await w.engine.detail('ZZZZZZ')).toBeNull();
    expect(await refusal(w.engine.command('ZZZZZZ', { type: 'join' }, callerOf(a)))).toBe('not_found');
    expect(await refusal(w.engine.chatHistory('ZZZZZZ'))).toBe('not_found');
  });

  it('refuses system commands from a client', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    expect(await refusal(w.engine.command(code, { type: 'tick' }, callerOf(a)))).toBe('invalid');
    expect(await refusal(w.engine.command(code, { type: 'record-match', matchId: 1 }, callerOf(a)))).toBe('invalid');
  });

  it('counts map votes and remembers each voter’s own vote', async () => {
    const w = world();
    const [a, b] = await w.users(2);
    const { code, lobby } = await w.engine.create(callerOf(a), {});
    await w.engine.command(code, { type: 'join' }, callerOf(b));
    const [first, second] = lobby.map_pool;
    await w.engine.command(code, { type: 'vote-map', map: first }, callerOf(a));
    await w.engine.command(code, { type: 'vote-map', map: first }, callerOf(b));
    await w.engine.command(code, { type: 'vote-map', map: second }, callerOf(b));
    expect(await w.engine.votes(code)).toMatchObject({ [first]: 1, [second]: 1 });
    expect(await w.engine.myVote(code, callerOf(b))).toBe(second);
  });

  it('pushes every change to watchers with its version, and nothing for a change that changes nothing', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code, lobby } = await w.engine.create(callerOf(a), {});
    await w.engine.command(code, { type: 'vote-map', map: lobby.map_pool[0] }, callerOf(a));
    await w.engine.command(code, { type: 'vote-map', map: lobby.map_pool[0] }, callerOf(a));
    await w.delivered();
    expect(w.broadcast.updates.map((u) => u.version)).toEqual([1, 2]);
  });

  it('lists open lobbies, drops cancelled ones, and tells the public cache and watchers', async () => {
    const w = world();
    const [a, b] = await w.users(2);
    const one = await w.engine.create(callerOf(a), { name: 'first' });
    w.clock.advance(1);
    const two = await w.engine.create(callerOf(b), { name: 'second' });
    expect((await w.engine.summaries()).map((s) => s.code)).toEqual([one.code, two.code]);
    await w.engine.command(one.code, { type: 'cancel' }, callerOf(a));
    await w.engine.idle();
    expect((await w.engine.summaries()).map((s) => s.code)).toEqual([two.code]);
    expect(w.invalidated).toContain('lobbies');
    await w.delivered();
    expect(w.broadcast.lists.at(-1)?.map((s) => s.code)).toEqual([two.code]);
  });

  it('keeps chat oldest first, trimmed, capped at the last 200, and pushes each message', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    for (let i = 0; i < 205; i++) await w.engine.chat(code, callerOf(a), ` m${i} `);
    const history = await w.engine.chatHistory(code);
    expect(history).toHaveLength(200);
    expect(history[0].message).toBe('m5');
    expect(history.at(-1)!.message).toBe('m204');
    await w.delivered();
    expect(w.broadcast.chats.map((c) => c.message.message)).toEqual(Array.from({ length: 205 }, (_, i) => `m${i}`));
  });

  it('stores and pushes nothing when the limit refuses a chat message, and answers its refusal before any other', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    const limited = { gated: () => Promise.reject(new DomainError('conflict', 'too many messages')), limit: undefined };
    expect(await refusal(w.engine.chat(code, callerOf(a), 'hello', limited))).toBe('conflict');
    expect(await refusal(w.engine.chat('ZZZZZZ', callerOf(a), 'hello', limited))).toBe('conflict');
    expect(await w.engine.chatHistory(code)).toEqual([]);
    await w.delivered();
    expect(w.broadcast.chats).toEqual([]);
  });

  it('counts the chat limit in the push itself: a refused message is neither stored, numbered nor pushed', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    const gate = {
      gated: () => Promise.reject(new Error('the gate is not asked when its limit is counted in the push')),
      limit: { hit: { key: `limit:${code}`, now: Date.now(), windowMs: 10_000, limit: 2 }, refuse: () => new DomainError('conflict', 'too many messages') },
    };
    const first = await w.engine.chat(code, callerOf(a), 'one', gate);
    const second = await w.engine.chat(code, callerOf(a), 'two', gate);
    expect(await refusal(w.engine.chat(code, callerOf(a), 'three', gate))).toBe('conflict');
    expect(second.id).toBe(first.id + 1);
    expect(await w.engine.chatHistory(code)).toEqual([first, second]);
    await w.delivered();
    expect(w.broadcast.chats.map((c) => c.message)).toEqual([first, second]);
  });

  it('meets the limit before refusing a message to a closed lobby when the limit is counted in the push', async () => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    await w.engine.command(code, { type: 'cancel' }, callerOf(a));
    const gate = { gated: () => Promise.reject(new DomainError('forbidden', 'limited')), limit: { hit: { key: 'l', now: Date.now(), windowMs: 1000, limit: 5 }, refuse: () => new Error('unused') } };
    expect(await refusal(w.engine.chat(code, callerOf(a), 'gg', gate))).toBe('forbidden');
    expect(await refusal(w.engine.chat(code, callerOf(a), 'gg'))).toBe('conflict');
  });

  it.each([
    ['an empty message', '   '],
    ['a message over 500 characters', 'x'.repeat(501)],
  ])('refuses %s in chat (400)', async (_name, message) => {
    const w = world();
    const [a] = await w.users(1);
    const { code } = await w.engine.create(callerOf(a), {});
    expect(await refusal(w.engine.chat(code, callerOf(a), message))).toBe('invalid');
  });
});
