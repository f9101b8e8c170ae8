import { describe, expect, it } from 'vitest';
import * as v from 'valibot';
import { createLobby } from '../../../src/domain/lobby/create-lobby';
import { DEFAULT_MAP_POOLS } from '../../../src/domain/lobby/formats';
import { LobbyState, memberKey } from '../../../src/domain/lobby/lobby-state';
import { actor, CODE, HOST, profile, T0 } from './lobby-fixtures';

const create = (input: Record<string, unknown> = {}, who = actor(HOST), options = {}) =>
  createLobby({ code: CODE, ...input } as never, who, T0, options);

const created = (input: Record<string, unknown> = {}) => {
  const out = create(input);
  if (!out.ok) throw new Error(out.error.message);
  return out.state;
};

const errorKind = (out: ReturnType<typeof create>) => (out.ok ? 'ok' : out.error.kind);

describe('creating a lobby', () => {
  it('starts in gathering at version 1', () => {
    const s = created();
    expect(s.phase).toBe('gathering');
    expect(s.version).toBe(1);
  });

  it('makes the creator the host', () => {
    expect(created().hostId).toBe(HOST);
  });

  it('puts the host in the pool as its first free agent', () => {
    expect(created().pool).toEqual([HOST]);
  });

  it("stores the host's profile", () => {
    expect(created().profiles[memberKey(HOST)]).toEqual(profile(HOST));
  });

  it('defaults to 6v6', () => {
    expect(created().format).toBe('6v6');
  });

  it('gives both teams the slots of the format, empty', () => {
    const s = created({ format: '4v4' });
    for (const team of ['red', 'blu'] as const) {
      expect(s.teams[team]).toEqual([
        { index: 0, class: 'scout', userId: null, readyUntil: null },
        { index: 1, class: 'soldier', userId: null, readyUntil: null },
        { index: 2, class: 'demoman', userId: null, readyUntil: null },
        { index: 3, class: 'medic', userId: null, readyUntil: null },
      ]);
    }
  });

  it("names the lobby after the host and format when no name is given", () => {
    expect(created({ format: 'ultiduo' }).name).toBe("player1's ultiduo");
  });

  it('keeps a given name, trimmed', () => {
    expect(created({ name: '  Friday mix  ' }).name).toBe('Friday mix');
  });

  it('refuses a blank name', () => {
    expect(errorKind(create({ name: '   ' }))).toBe('invalid');
  });

  it('refuses a name longer than 64 characters', () => {
    expect(errorKind(create({ name: 'x'.repeat(65) }))).toBe('invalid');
  });

  it('refuses an unknown format', () => {
    expect(errorKind(create({ format: '12v12' }))).toBe('invalid');
  });

  it('uses the default map pool of its format', () => {
    expect(created({ format: '9v9' }).mapPool).toEqual(DEFAULT_MAP_POOLS['9v9']);
  });

  it('accepts a custom map pool of known maps', () => {
    expect(created({ mapPool: ['cp_sunshine', 'koth_bagel_rc10'] }).mapPool).toEqual(['cp_sunshine', 'koth_bagel_rc10']);
  });

  it('refuses a map pool of one map', () => {
    expect(errorKind(create({ mapPool: ['cp_sunshine'] }))).toBe('invalid');
  });

  it('refuses a map pool of six maps', () => {
    const six = ['cp_process_final', 'cp_gullywash_f9', 'cp_sunshine', 'koth_product_final', 'cp_granary_pro_rc16f', 'koth_bagel_rc10'];
    expect(errorKind(create({ mapPool: six }))).toBe('invalid');
  });

  it('refuses a map pool naming a map twice', () => {
    expect(errorKind(create({ mapPool: ['cp_sunshine', 'cp_sunshine'] }))).toBe('invalid');
  });

  it('refuses a map pool with an unknown map', () => {
    expect(errorKind(create({ mapPool: ['cp_sunshine', 'de_dust2'] }))).toBe('invalid');
  });

  it('accepts maps from a known-map list the engine passes in', () => {
    expect(errorKind(create({ mapPool: ['cp_sunshine', 'cp_custom_b1'] }, actor(HOST), { knownMaps: ['cp_sunshine', 'cp_custom_b1'] }))).toBe('ok');
  });

  it('keeps the region and reservation it is given', () => {
    const s = created({ region: 'eu', reservationId: 12 });
    expect([s.region, s.reservationId]).toEqual(['eu', 12]);
  });

  it('has no region and no reservation by default', () => {
    const s = created();
    expect([s.region, s.reservationId]).toEqual([null, null]);
  });

  it('refuses a reservation id that is not a positive integer', () => {
    expect(errorKind(create({ reservationId: -3 }))).toBe('invalid');
  });

  it('refuses an empty code', () => {
    expect(errorKind(create({ code: '' }))).toBe('invalid');
  });

  it('is forbidden to a banned user', () => {
    expect(errorKind(create({}, actor(HOST, { banned: true })))).toBe('forbidden');
  });

  it('is a conflict for a user already in another lobby', () => {
    expect(errorKind(create({}, actor(HOST, { currentLobby: 'ZZ99' })))).toBe('conflict');
  });

  it('records the creation time', () => {
    expect(created().createdAt).toBe(T0);
  });

  it('announces the lobby and its first member', () => {
    const out = create();
    expect(out.ok && out.events).toEqual([
      { type: 'lobby_created', code: CODE, hostId: HOST },
      { type: 'members_changed', joined: [HOST], left: [] },
    ]);
  });

  it('produces a document that matches the stored-state schema and survives JSON', () => {
    const s = created();
    expect(v.is(LobbyState, s)).toBe(true);
    expect(JSON.parse(JSON.stringify(s))).toEqual(s);
  });
});
