import * as v from 'valibot';
import { defineRoute } from '../route-contract';

const tag = 'Login';

export const DevLoginQuery = v.object({
  name: v.pipe(
    v.string('name is required'),
    v.trim(),
    v.regex(/^[\w .-]{2,32}$/, 'name must be 2 to 32 letters, digits, spaces, _ . or -'),
  ),
  admin: v.optional(v.picklist(['0', '1'], 'admin must be 0 or 1'), '0'),
});

export const DevLoginStatus = v.object({ enabled: v.boolean() });

export const devLoginRoutes = {
  devLogin: defineRoute({
    operationId: 'devLogin', method: 'get', path: '/auth/dev', tag, auth: [],
    summary: 'Logs in as a local user of that name without an identity provider (DEV_LOGIN=1 only)',
    description:
      'For local play and demos. With DEV_LOGIN=1 (never honoured with NODE_ENV=production: start-up refuses it) this ' +
      'creates or refreshes a local user called `name` (the same name is always the same user), admin when `admin=1`, ' +
      'sets the league_session cookie and redirects to /?logged_in=1 exactly as the real login callback does. ' +
      'Without DEV_LOGIN=1 it answers 404. A name outside the rule answers 400 naming the field.',
    query: DevLoginQuery,
    success: { status: 302, description: 'To /?logged_in=1' },
    errors: [400, 404],
  }),
  devLoginStatus: defineRoute({
    operationId: 'getDevLoginStatus', method: 'get', path: '/auth/dev/status', tag, auth: [],
    summary: 'Whether local dev login is on',
    description: 'Lets the live page offer "play as ..." only when `GET /auth/dev` works (DEV_LOGIN=1).',
    success: { status: 200, schema: DevLoginStatus },
    errors: [],
  }),
};
