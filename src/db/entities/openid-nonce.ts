import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** An OpenID response nonce already used for a login (its hash), kept until it could no longer pass the skew check. */
export const OpenIdNonce = defineEntity({
  name: 'OpenIdNonce',
  tableName: 'openid_nonces',
  properties: {
    nonceHash: p.string().length(64).primary(),
    expiresAt: p.datetime().index(),
  },
});
export type OpenIdNonceEntity = InferEntity<typeof OpenIdNonce>;
