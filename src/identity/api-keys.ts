import { randomBytes } from 'node:crypto';
import type { ApiKeyRecord as WireApiKey, ApiKeyIssueResponse, CurrentKey } from '../../schema/identity';
import { toUserPublic, type UserRecord } from '../db/user-record';
import type { ApiKeyKind, ApiKeyRecord, NewApiKey } from '../db/api-key-repository';
import type { ApiKeyAuditRecord } from '../db/audit-repository';
import type { EntityManager } from '../db/orm';
import { conflict, notFound } from '../domain/domain-error';
import { API_KEY_RANDOM_BYTES, formatApiKey, hashApiKey, keyPrefix } from '../domain/keys/api-key-format';

export interface ApiKeysDeps {
  keys: {
    insert(key: NewApiKey, em?: EntityManager): Promise<ApiKeyRecord>;
    findById(id: number): Promise<ApiKeyRecord | null>;
    listByUser(userId: number): Promise<ApiKeyRecord[]>;
    listAll(limit?: number): Promise<ApiKeyRecord[]>;
    countActiveByUser(userId: number, kind: ApiKeyKind, em?: EntityManager): Promise<number>;
    revoke(id: number, at: Date, ownerId?: number): Promise<boolean>;
  };
  audit: { lastPerKey(keyIds: readonly number[], perKey?: number): Promise<Map<number, ApiKeyAuditRecord[]>> };
  /** Writes queued audit rows first, so a list shows this instance's latest uses. */
  flushAudit: () => Promise<void>;
  clock: () => number;
  random?: (bytes: number) => Uint8Array;
}

/** Spec, Limits: the list shows the last 20 audit rows of each key. */
export const AUDIT_ROWS_PER_KEY = 20;
/** Enough for a handful of bots per member; a runaway script minting keys stops here. */
export const MAX_ACTIVE_KEYS_PER_USER = 10;

/** Issuing, listing and revoking keys. The raw key exists only in the issue response (rule 3, 4). */
export class ApiKeys {
  constructor(private readonly deps: ApiKeysDeps) {}

  /** `em`: the caller's transaction, when the key is issued with other writes (KeyAdmin's audit row). */
  async issue(userId: number, kind: ApiKeyKind, label: string | null | undefined, em?: EntityManager): Promise<ApiKeyIssueResponse> {
    if ((await this.deps.keys.countActiveByUser(userId, kind, em)) >= MAX_ACTIVE_KEYS_PER_USER) {
      throw conflict(`at most ${MAX_ACTIVE_KEYS_PER_USER} active ${kind} keys per account; revoke one first`);
    }
    const random = this.deps.random ?? ((n: number) => randomBytes(n));
    const raw = formatApiKey(kind, random(API_KEY_RANDOM_BYTES));
    const record = await this.deps.keys.insert({
      userId,
      kind,
      label: label ? label : null,
      keyHash: hashApiKey(raw),
      keyPrefix: keyPrefix(raw),
    }, em);
    const { audit: _none, ...wire } = toWire(record, []);
    return { ...wire, raw_key: raw };
  }

  async listOwn(userId: number): Promise<WireApiKey[]> {
    await this.deps.flushAudit();
    return this.withAudit(await this.deps.keys.listByUser(userId));
  }

  async listAll(): Promise<WireApiKey[]> {
    await this.deps.flushAudit();
    return this.withAudit(await this.deps.keys.listAll());
  }

  /** The key a request was authenticated with, for the bot that holds it. */
  async current(keyId: number, owner: UserRecord): Promise<CurrentKey> {
    const key = await this.deps.keys.findById(keyId);
    if (!key) throw notFound('no such key');
    return { id: key.id, kind: key.kind, label: key.label, key_prefix: key.keyPrefix, user: toUserPublic(owner) };
  }

  /** Rule 7: the owner revokes their own keys; an admin (ownerId undefined) any key. */
  async revoke(id: number, ownerId?: number): Promise<void> {
    const revoked = await this.deps.keys.revoke(id, new Date(this.deps.clock()), ownerId);
    if (!revoked) throw notFound('no such active key');
  }

  private async withAudit(keys: ApiKeyRecord[]): Promise<WireApiKey[]> {
    const audit = await this.deps.audit.lastPerKey(
      keys.map((k) => k.id),
      AUDIT_ROWS_PER_KEY,
    );
    return keys.map((key) => toWire(key, audit.get(key.id) ?? []));
  }
}

function toWire(key: ApiKeyRecord, audit: readonly ApiKeyAuditRecord[]): WireApiKey {
  return {
    id: key.id,
    user_id: key.userId,
    kind: key.kind,
    label: key.label,
    key_prefix: key.keyPrefix,
    created_at: key.createdAt.toISOString(),
    last_used_at: key.lastUsedAt?.toISOString() ?? null,
    revoked_at: key.revokedAt?.toISOString() ?? null,
    audit: audit.map((row) => ({
      endpoint: row.endpoint,
      method: row.method,
      client_hash: row.clientHash,
      status: row.status,
      at: row.createdAt.toISOString(),
    })),
  };
}
