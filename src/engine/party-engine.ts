import { machineTime } from '../clock/machine-time';
import { randomBytes as secureRandomBytes } from 'node:crypto';
import * as v from 'valibot';
import type { PartyMeBody } from '../../schema/party';
import { toUserPublic } from '../db/user-record';
import { forbidden, notFound, type Outcome } from '../domain/domain-error';
import { createParty } from '../domain/party/create-party';
import { generatePartyCode, PARTY_CODE_LENGTH } from '../domain/party/party-code';
import type { PartyEvent } from '../domain/party/party-events';
import { accept, decline, invite } from '../domain/party/party-invites';
import { disband, kick, leave } from '../domain/party/party-membership';
import { isPartyMember, PartyState } from '../domain/party/party-state';
import { partyView } from '../domain/party/party-wire';
import type { Caller } from '../identity/caller';
import type { CasWrite, LiveStore, VersionedDoc } from '../live/live-store';
import { retryOnConflict, type CasStep } from './cas-retry';
import type { BanLookup, UserLookup } from './engine-ports';
import { PARTY_ID_SEQUENCE, PARTY_INVITE_SEQUENCE, partyInboxKey, partyInviteKey, partyKey, partyMemberKey } from './live-keys';
import { banCheck, requireUser } from './lobby-actors';

export interface PartyEngineDeps {
  live: LiveStore;
  users: UserLookup;
  bans: BanLookup;
  clock?: () => number;
  randomBytes?: (size: number) => Uint8Array;
}

/** An invite as the invitee's inbox remembers it: a hint, checked against the party when read. */
interface InboxEntry {
  inviteId: number;
  partyId: number;
  partyCode: string;
  fromUserId: number;
}

const INBOX_MAX = 20;
/** An invite's pointer to its party outlives any sensible wait for an answer. */
const INVITE_TTL_MS = 7 * 24 * 60 * 60 * 1000;

type Loaded = { doc: VersionedDoc<unknown>; state: PartyState };

/**
 * Parties in the live store: `party:<id>` holds the party, `party-member:<userId>` the one party a
 * user is in, `party-inbox:<userId>` the invites they received. Every change writes the party and
 * the index entries it affects in one compare-and-set, retried when someone else got there first.
 */
export class PartyEngine {
  readonly #clock: () => number;
  readonly #isBanned: (userId: number) => Promise<boolean>;

  constructor(private readonly deps: PartyEngineDeps) {
    this.#clock = deps.clock ?? machineTime.wall;
    this.#isBanned = banCheck(deps.bans, this.#clock);
  }

  async me(caller: Caller): Promise<PartyMeBody> {
    if (caller.user === null) return { party: null, received_invites: [] };
    const userId = caller.user.id;
    const [memberDoc, inboxDoc] = await this.deps.live.getMany([partyMemberKey(userId), partyInboxKey(userId)]);
    const party = memberDoc ? await this.#load(memberDoc.value as number) : null;
    const inbox = (inboxDoc?.value ?? []) as InboxEntry[];
    const parties = await Promise.all(inbox.map((entry) => this.#load(entry.partyId)));
    const pending = inbox.filter((entry, i) => parties[i]?.state.invites.some((x) => x.id === entry.inviteId && x.toUserId === userId));
    return {
      party: party && isPartyMember(party.state, userId) ? partyView(party.state) : null,
      received_invites: pending.map((e) => ({ id: e.inviteId, party_id: e.partyId, party_code: e.partyCode, from_user_id: e.fromUserId })),
    };
  }

  async create(caller: Caller, name: string | null | undefined): Promise<{ code: string }> {
    const user = requireUser(caller);
    const banned = await this.#isBanned(user.id);
    const id = await this.deps.live.increment(PARTY_ID_SEQUENCE);
    const code = generatePartyCode((this.deps.randomBytes ?? secureRandomBytes)(PARTY_CODE_LENGTH));
    return this.#retry(async () => {
      const { entry, party } = await this.#partyOf(user.id);
      const outcome = createParty({ id, code, name }, { profile: toUserPublic(user), currentParty: party?.state.id ?? null, banned }, this.#clock());
      const created = settled(outcome);
      return step({ code }, { key: partyKey(id), expectedVersion: 0, value: created }, replace(partyMemberKey(user.id), entry, id));
    });
  }

  async invite(caller: Caller, toPlatformId: string): Promise<void> {
    const user = requireUser(caller);
    const invitee = await this.deps.users.findByPlatformId(toPlatformId);
    if (invitee === null) throw notFound('user not found');
    const inviteId = await this.deps.live.increment(PARTY_INVITE_SEQUENCE);
    await this.#retry(async () => {
      const { doc, state } = await this.#ownParty(user.id);
      const next = settled(invite(state, { inviteId, invitee: toUserPublic(invitee) }, { userId: user.id }, this.#clock()));
      const [inboxDoc, pointer] = await this.deps.live.getMany<InboxEntry[]>([partyInboxKey(invitee.id), partyInviteKey(inviteId)]);
      const entry: InboxEntry = { inviteId, partyId: state.id, partyCode: state.code, fromUserId: user.id };
      const inbox = [...(inboxDoc?.value ?? []), entry].slice(-INBOX_MAX);
      return step(
        undefined,
        replace(partyKey(state.id), doc, next),
        replace(partyInboxKey(invitee.id), inboxDoc, inbox),
        { ...replace(partyInviteKey(inviteId), pointer, state.id), ttlMs: INVITE_TTL_MS },
      );
    });
  }

  async accept(caller: Caller, inviteId: number): Promise<void> {
    const user = requireUser(caller);
    await this.#retry(async () => {
      const { inboxDoc, inbox, party } = await this.#invited(user.id, inviteId);
      const { entry, party: current } = await this.#partyOf(user.id);
      const next = settled(accept(party.state, { inviteId }, { profile: toUserPublic(user), currentParty: current?.state.id ?? null }, this.#clock()));
      return step(
        undefined,
        replace(partyKey(party.state.id), party.doc, next),
        replace(partyMemberKey(user.id), entry, party.state.id),
        replace(partyInboxKey(user.id), inboxDoc, inbox.filter((e) => e.inviteId !== inviteId)),
      );
    });
  }

  async decline(caller: Caller, inviteId: number): Promise<void> {
    const user = requireUser(caller);
    await this.#retry(async () => {
      const { inboxDoc, inbox, party } = await this.#invited(user.id, inviteId);
      const next = settled(decline(party.state, { inviteId }, { userId: user.id }, this.#clock()));
      return step(
        undefined,
        replace(partyKey(party.state.id), party.doc, next),
        replace(partyInboxKey(user.id), inboxDoc, inbox.filter((e) => e.inviteId !== inviteId)),
      );
    });
  }

  async leave(caller: Caller): Promise<void> {
    const user = requireUser(caller);
    await this.#retry(async () => {
      const { entry, party } = await this.#partyOf(user.id);
      if (party === null) throw forbidden('not in a party');
      const next = settled(leave(party.state, { userId: user.id }, this.#clock()));
      return step(undefined, replace(partyKey(party.state.id), party.doc, next), replace(partyMemberKey(user.id), entry, null));
    });
  }

  async kick(caller: Caller, userId: number): Promise<void> {
    const user = requireUser(caller);
    await this.#retry(async () => {
      const { doc, state } = await this.#ownParty(user.id);
      const next = settled(kick(state, { userId }, { userId: user.id }, this.#clock()));
      const target = await this.deps.live.get(partyMemberKey(userId));
      const entryWrite = target?.value === state.id ? [replace(partyMemberKey(userId), target, null)] : [];
      return step(undefined, replace(partyKey(state.id), doc, next), ...entryWrite);
    });
  }

  async disband(caller: Caller): Promise<void> {
    const user = requireUser(caller);
    await this.#retry(async () => {
      const { doc, state } = await this.#ownParty(user.id);
      settled(disband(state, { userId: user.id }, this.#clock()));
      const ids = state.members.map((m) => m.id);
      const entries = await this.deps.live.getMany(ids.map(partyMemberKey));
      const entryWrites = ids.flatMap((id, i) => (entries[i]?.value === state.id ? [replace(partyMemberKey(id), entries[i], null)] : []));
      return step(undefined, replace(partyKey(state.id), doc, null), ...entryWrites);
    });
  }

  #retry<T>(run: () => Promise<CasStep<T>>): Promise<T> {
    return retryOnConflict(this.deps.live, run);
  }

  async #load(id: number): Promise<Loaded | null> {
    const doc = await this.deps.live.get(partyKey(id));
    return doc && { doc, state: v.parse(PartyState, doc.value) };
  }

  /** The user's index entry and the party it names, if the user is really in it. */
  async #partyOf(userId: number): Promise<{ entry: VersionedDoc<unknown> | null; party: Loaded | null }> {
    const entry = await this.deps.live.get(partyMemberKey(userId));
    const party = entry ? await this.#load(entry.value as number) : null;
    return { entry, party: party && isPartyMember(party.state, userId) ? party : null };
  }

  async #ownParty(userId: number): Promise<Loaded> {
    const { party } = await this.#partyOf(userId);
    if (party === null) throw forbidden('not in a party');
    return party;
  }

  /** The party an invite belongs to (the domain then tells whose invite it is) and the caller's inbox. */
  async #invited(userId: number, inviteId: number) {
    const [pointer, inboxDoc] = await this.deps.live.getMany([partyInviteKey(inviteId), partyInboxKey(userId)]);
    const party = pointer ? await this.#load(pointer.value as number) : null;
    if (party === null) throw notFound('invite not found');
    return { inboxDoc, inbox: (inboxDoc?.value ?? []) as InboxEntry[], party };
  }
}

/** The new state of a refused-or-accepted change; a refusal is thrown as the domain error it is. */
function settled<S>(outcome: Outcome<S, PartyEvent>): S {
  if (!outcome.ok) throw outcome.error;
  return outcome.state;
}

/** Write `value` (null deletes) over the document as it was read (absent: version 0). */
function replace(key: string, read: VersionedDoc<unknown> | null, value: unknown): CasWrite {
  return { key, expectedVersion: read?.version ?? 0, value };
}

const step = <T>(value: T, ...writes: CasWrite[]): CasStep<T> => ({ value, writes });
