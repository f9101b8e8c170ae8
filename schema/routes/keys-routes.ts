import * as v from 'valibot';
import { AdminKeyIssueBody, ApiKeyIssueBody, ApiKeyIssueResponse, ApiKeyRecord, CurrentKey, KeyIdParams } from '../identity';
import { defineRoute } from '../route-contract';

export const keysRoutes = {
  issuePremiumKey: defineRoute({
    operationId: 'issuePremiumApiKey', method: 'post', path: '/api/premium/api-keys', tag: 'Premium',
    auth: ['session'], role: 'premium',
    summary: 'Issues a premium key (svc_pk_...); raw_key is returned once, only its SHA-256 is kept (active premium required)',
    body: ApiKeyIssueBody, success: { status: 201, schema: ApiKeyIssueResponse }, errors: [400, 401, 403, 409],
  }),
  listOwnKeys: defineRoute({
    operationId: 'listPremiumApiKeys', method: 'get', path: '/api/premium/api-keys', tag: 'Premium', auth: ['session'],
    summary: "The caller's keys without hashes, each with its last 20 audit rows",
    success: { status: 200, schema: v.array(ApiKeyRecord) }, errors: [401, 403],
  }),
  currentKey: defineRoute({
    operationId: 'getCurrentApiKey', method: 'get', path: '/api/premium/api-keys/current', tag: 'Premium', auth: ['premium', 'admin'],
    summary: 'The key this request carries and its account: lets a bot check its key (counts against its rate limit)',
    success: { status: 200, schema: CurrentKey }, errors: [401, 403, 429],
  }),
  revokeOwnKey: defineRoute({
    operationId: 'revokePremiumApiKey', method: 'delete', path: '/api/premium/api-keys/:id', tag: 'Premium', auth: ['session'],
    summary: "Revokes one of the caller's keys", params: KeyIdParams, success: { status: 204 }, errors: [401, 403, 404],
  }),
  issueAdminKey: defineRoute({
    operationId: 'issueAdminApiKey', method: 'post', path: '/api/admin/api-keys', tag: 'Admin', auth: ['session'], role: 'admin',
    summary: 'Issues an admin key (svc_ak_...) for an admin account (the caller by default); raw_key is returned once',
    body: AdminKeyIssueBody, success: { status: 201, schema: ApiKeyIssueResponse }, errors: [400, 401, 403, 404, 409],
  }),
  listAllKeys: defineRoute({
    operationId: 'listAllApiKeys', method: 'get', path: '/api/admin/api-keys', tag: 'Admin', auth: ['session', 'admin'], role: 'admin',
    summary: 'Every key (newest 500), each with its last 20 audit rows',
    success: { status: 200, schema: v.array(ApiKeyRecord) }, errors: [401, 403],
  }),
  revokeAnyKey: defineRoute({
    operationId: 'revokeAnyApiKey', method: 'delete', path: '/api/admin/api-keys/:id', tag: 'Admin', auth: ['session', 'admin'], role: 'admin',
    summary: 'Revokes any key', params: KeyIdParams, success: { status: 204 }, errors: [401, 403, 404],
  }),
};
