import * as v from 'valibot';
import { AdminKeyIssueBody, ApiKeyIssueBody, ApiKeyIssueResponse, ApiKeyRecord, CurrentKey, KeyIdParams } from '../identity';
import { defineRoute } from '../route-contract';

export const keysRoutes = {
  issuePremiumKey: defineRoute({
    operationId: 'issuePremiumApiKey', method: 'post', path: '/api/premium/api-keys', tag: 'Premium',
    auth: ['session'], role: 'premium',
    summary: 'Issues a premium key (svc_pk_...); raw_key is returned once, only its SHA-256 is kept (active premium required)',
    body: ApiKeyIssueBody,
    description:
      'A key for bots acting as the caller (Authorization: Bearer svc_pk_...). Needs active premium (403 otherwise); at most 10 active keys per account (409).',
    bodyExample: { label: 'match bot' },
    success: { status: 201, schema: ApiKeyIssueResponse }, errors: [400, 401, 403, 409],
  }),
  listOwnKeys: defineRoute({
    operationId: 'listPremiumApiKeys', method: 'get', path: '/api/premium/api-keys', tag: 'Premium', auth: ['session'],
    summary: "The caller's keys without hashes, each with its last 20 audit rows",
    description:
      'The caller\'s keys, revoked ones included, newest first, with their recent uses (endpoint, method, hashed client address, status).',
    success: { status: 200, schema: v.array(ApiKeyRecord) }, errors: [401, 403],
  }),
  currentKey: defineRoute({
    operationId: 'getCurrentApiKey', method: 'get', path: '/api/premium/api-keys/current', tag: 'Premium', auth: ['premium', 'admin'],
    summary: 'The key this request carries and its account: lets a bot check its key (counts against its rate limit)',
    description:
      'The key the request was authenticated with and its account, so a bot can check which key it holds.',
    success: { status: 200, schema: CurrentKey }, errors: [401, 403, 429],
  }),
  revokeOwnKey: defineRoute({
    operationId: 'revokePremiumApiKey', method: 'delete', path: '/api/premium/api-keys/:id', tag: 'Premium', auth: ['session'],
    summary: "Revokes one of the caller's keys", params: KeyIdParams,
    description:
      'Revokes one of the caller\'s own keys at once on every instance; another user\'s key or an unknown id: 404.',
    success: { status: 204 }, errors: [401, 403, 404],
  }),
  issueAdminKey: defineRoute({
    operationId: 'issueAdminApiKey', method: 'post', path: '/api/admin/api-keys', tag: 'Admin', auth: ['session'], role: 'admin',
    summary: 'Issues an admin key (svc_ak_...) for an admin account (the caller by default); raw_key is returned once',
    body: AdminKeyIssueBody,
    description:
      'How an operator gets an admin key after logging in as a listed admin (or with `npm run admin -- issue-key`). The owner must be an admin account (400 otherwise, 404 when unknown). Writes an admin audit row (action api_key.issue) in the same transaction; the row holds the key\'s prefix, never the key.',
    bodyExample: { label: 'ops bot' },
    success: { status: 201, schema: ApiKeyIssueResponse }, errors: [400, 401, 403, 404, 409],
  }),
  listAllKeys: defineRoute({
    operationId: 'listAllApiKeys', method: 'get', path: '/api/admin/api-keys', tag: 'Admin', auth: ['session', 'admin'], role: 'admin',
    summary: 'Every key (newest 500), each with its last 20 audit rows',
    description:
      'Every key of every account (newest 500) with its recent uses.',
    success: { status: 200, schema: v.array(ApiKeyRecord) }, errors: [401, 403],
  }),
  revokeAnyKey: defineRoute({
    operationId: 'revokeAnyApiKey', method: 'delete', path: '/api/admin/api-keys/:id', tag: 'Admin', auth: ['session', 'admin'], role: 'admin',
    summary: 'Revokes any key', params: KeyIdParams,
    description:
      'Revokes any account\'s key; writes an admin audit row (action api_key.revoke) with the key before and after.',
    success: { status: 204 }, errors: [401, 403, 404],
  }),
};
