import * as v from 'valibot';
import { defineRoute } from '../route-contract';

const tag = 'Servers';

export const serversRoutes = {
  maps: defineRoute({
    operationId: 'listServerMaps', method: 'get', path: '/api/servers/maps', tag, auth: [],
    summary: 'Maps valid for provisioning a server and for a lobby map pool (built-in and active uploaded maps)',
    success: { status: 200, schema: v.array(v.string()) }, errors: [],
  }),
};
