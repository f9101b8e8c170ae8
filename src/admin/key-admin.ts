import type { ApiKeyIssueResponse } from '../../schema/identity';
import { AdminAuditRepository } from '../db/admin-audit-repository';
import type { ApiKeyRecord, ApiKeyRepository } from '../db/api-key-repository';
import type { EmSource } from '../db/orm';
import { notFound } from '../domain/domain-error';
import type { ApiKeys } from '../identity/api-keys';

export interface KeyAdminDeps {
  db: EmSource;
  /** Issues the key (its limits and format); run on this module's transaction. */
  apiKeys: Pick<ApiKeys, 'issue'>;
  keys: Pick<ApiKeyRepository, 'findById' | 'revoke'>;
  clock: () => number;
}

/** Who acted: an admin account, or the operator at the command line (no account: actor null). */
export type KeyAdminActor = { userId: number } | { operator: string };

/**
 * Admin keys issued and revoked by an admin or the operator CLI, each with its audit row in the
 * same transaction: a key exists exactly when the log says it was issued. The audit row holds the
 * key's prefix, never the raw key.
 */
export class KeyAdmin {
  constructor(private readonly deps: KeyAdminDeps) {}

  async issueAdminKey(actor: KeyAdminActor, ownerId: number, label: string | null | undefined): Promise<ApiKeyIssueResponse> {
    return this.deps.db.em().transactional(async (em) => {
      const issued = await this.deps.apiKeys.issue(ownerId, 'admin', label, em);
      const { raw_key: _secret, ...after } = issued;
      await AdminAuditRepository.insertIn(em, { ...who(actor), action: 'api_key.issue', targetType: 'api_key', targetId: String(issued.id), before: null, after });
      return issued;
    });
  }

  async revokeKey(actor: KeyAdminActor, keyId: number): Promise<void> {
    await this.deps.db.em().transactional(async (em) => {
      const { keys } = this.deps;
      const at = new Date(this.deps.clock());
      const before = await keys.findById(keyId, em);
      if (!before || !(await keys.revoke(keyId, at, undefined, em))) throw notFound('no such active key');
      await AdminAuditRepository.insertIn(em, {
        ...who(actor), action: 'api_key.revoke', targetType: 'api_key', targetId: String(keyId), before: auditView(before), after: auditView({ ...before, revokedAt: at }),
      });
    });
  }
}

function who(actor: KeyAdminActor): { actorId: number | null; reason: string | null } {
  return 'userId' in actor ? { actorId: actor.userId, reason: null } : { actorId: null, reason: `operator CLI (${actor.operator})` };
}

/** What an audit row keeps of a key: never its hash. */
function auditView(key: ApiKeyRecord) {
  return { user_id: key.userId, kind: key.kind, label: key.label, key_prefix: key.keyPrefix, revoked_at: key.revokedAt?.toISOString() ?? null };
}
