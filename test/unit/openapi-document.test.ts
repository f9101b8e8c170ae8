import { createConfig, lintFromString } from '@redocly/openapi-core';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { registerComponents } from '../../schema/components';
import { buildOpenApiDocument } from '../../schema/openapi';
import { defineRoute } from '../../schema/route-contract';
import { allRoutes } from '../../schema/routes';

const SERVER = 'https://league.invalid';
const document = () => buildOpenApiDocument(allRoutes, SERVER) as any;

describe('the OpenAPI document', () => {
  it("passes Redocly's recommended rules: no errors, and only warnings the API's shape explains", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({ source: JSON.stringify(document()), absoluteRef: '/openapi.json', config });
    expect(problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
    const redirects = allRoutes.filter((r) => r.success.status === 302).length;
    const warnings = problems.map((p) => p.ruleId);
    // Login redirects answer 302 only; the card route (/api/users/card/{userId}) shares a prefix with
    // the rating history (/api/users/{platformId}/...) and a user's posts (/api/users/{userId}/posts),
    // which numeric ids never make ambiguous.
    expect(warnings.filter((id) => id === 'operation-2xx-response')).toHaveLength(redirects);
    expect(warnings.filter((id) => id === 'no-ambiguous-paths').length).toBeLessThanOrEqual(2);
    expect(warnings.filter((id) => id !== 'operation-2xx-response' && id !== 'no-ambiguous-paths')).toEqual([]);
  });

  it('names every record of the specification as a component, referenced where it is used', () => {
    const doc = document();
    for (const name of ['LobbyDetail', 'LobbySummary', 'UserPublic', 'UserSelf', 'ServerReservation', 'MapEntry', 'PointBalance', 'PremiumStatus', 'GiftCode', 'Error']) {
      expect(doc.components.schemas[name], name).toBeDefined();
    }
    expect(doc.paths['/api/lobbies/{code}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LobbyDetail' });
    expect(JSON.stringify(doc.components.schemas.LobbyDetail)).toContain('#/components/schemas/UserPublic');
    expect(doc.paths['/api/lobbies'].post.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/LobbyCreateBody' });
    expect(JSON.stringify(doc)).not.toContain('$defs');
  });

  it('names the records of the areas of this round (docs/design/CONTRACT.md, "Tag areas") as components', () => {
    const schemas = document().components.schemas;
    for (const name of [
      'Team', 'TeamSummary', 'TeamInvite', 'TeamMembershipInterval', 'Approval', 'Tournament', 'TournamentMatch', 'Bracket', 'StandingRow',
      'Category', 'ThreadSummary', 'Post', 'Report', 'ClientLog', 'Webhook', 'Delivery',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
  });

  it('describes every operation, and gives every body an example', () => {
    for (const route of allRoutes) {
      expect(route.description?.trim(), `${route.operationId}: description`).toBeTruthy();
      if (route.body) expect(route.bodyExample, `${route.operationId}: bodyExample`).toBeDefined();
    }
  });

  it('resolves every $ref to a component', () => {
    const text = JSON.stringify(document());
    const refs = new Set([...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]));
    const schemas = document().components.schemas;
    for (const name of refs) expect(schemas[name], name).toBeDefined();
  });

  it("takes an operation's description and body example from its contract, and invents none", () => {
    const doc = document();
    for (const route of allRoutes) {
      const op = doc.paths[route.path.replace(/:(\w+)/g, '{$1}').replace(/(.)\/$/, '$1')][route.method];
      expect(op.description).toBe(route.description);
      if (route.body) expect(op.requestBody.content[route.bodyContentType ?? 'application/json'].example).toEqual(route.bodyExample);
    }
  });

  it('gives only body examples that the route itself accepts', () => {
    for (const route of allRoutes) {
      if (route.body && route.bodyExample !== undefined) expect(v.safeParse(route.body, route.bodyExample).success, route.operationId).toBe(true);
    }
  });

  it("adds another area's record with one line, without that area's routes existing", () => {
    const Trophy = v.object({ id: v.number(), title: v.string() });
    registerComponents({ Trophy });
    const route = defineRoute({
      operationId: 'getTrophy', method: 'get', path: '/api/trophies/:id', tag: 'Trophies', auth: [], summary: 'One trophy',
      success: { status: 200, schema: Trophy }, errors: [404],
    });
    const doc = buildOpenApiDocument([route], SERVER) as any;
    expect(doc.components.schemas.Trophy).toBeDefined();
    expect(doc.paths['/api/trophies/{id}'].get.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Trophy' });
  });
});
