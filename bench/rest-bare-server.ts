/**
 * The baseline of the REST benchmark, in its own process: the league's own door for lobby
 * commands (the native route binder of rest/native-route-binder.ts, with its framing checks, JSON
 * body read, path and body schemas and error answer) bound to the same contracts the benchmark
 * drives, with a credential check that only reads the session cookie and a handler that answers
 * `{ok: true}`. No session lookup, no engine, no stores: what a command through the REST door
 * costs before any of our work, on this machine, at this moment.
 *
 * `tsx bench/rest-bare-server.ts` with PORT.
 */
import pino from 'pino';
import { lobbyCommandContracts } from '../schema/routes/lobby-routes';
import type { RouteContract } from '../schema/route-contract';
import { HttpError } from '../rest/http-error';
import { bindNativeRoute } from '../rest/native-route-binder';
import { createUwsApp, listen } from '../host/uws-host';
import { readSessionCookie } from '../src/identity/session-cookie';
import { InFlight } from '../src/server-lifecycle';

const uws = createUwsApp();
uws.get('/healthz', (res) => void res.end('{"ok":true}'));
const deps = {
  authenticate: async (req: { cookie?: string }) => {
    if (!readSessionCookie(req.cookie)) throw new HttpError(401, 'login required');
    return null;
  },
  inFlight: new InFlight(),
  logger: pino({ level: 'warn' }),
  observers: [],
  addressOf: (peer: string) => peer,
};
for (const name of ['vote-map', 'keep-ready', 'chat'] as const) {
  bindNativeRoute(uws, lobbyCommandContracts[name] as RouteContract, deps, async () => ({ ok: true }));
}
await listen(uws, '127.0.0.1', Number(process.env.PORT));
process.once('SIGTERM', () => process.exit(0));
