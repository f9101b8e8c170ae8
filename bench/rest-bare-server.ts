/**
 * The baseline of the REST benchmark, in its own process: the league's own express pipeline on
 * uWS (uwebsockets-express, the response fixes, the JSON body parser, the error handler) with one
 * route, `POST /api/lobbies/:code/:type`, that reads the session cookie as the league does and
 * answers `{ok: true}`. No session lookup, no engine, no stores: what a command through the REST
 * door costs before any of our work, on this machine, at this moment.
 *
 * `tsx bench/rest-bare-server.ts` with PORT.
 */
import express from 'express';
import pino from 'pino';
import { mountRestApp } from '../rest/rest-app';
import { createUwsApp, listen } from '../realtime/uws-host';
import { readSessionCookie } from '../src/identity/session-cookie';

const uws = createUwsApp();
uws.get('/healthz', (res) => void res.end('{"ok":true}'));
const router = express.Router();
router.post('/api/lobbies/:code/:type', (req, res) => {
  if (!readSessionCookie(req.headers.cookie)) return void res.status(401).json({ error: 'login required' });
  res.json({ ok: true });
});
mountRestApp(uws, { logger: pino({ level: 'warn' }), routers: [router] });
await listen(uws, '127.0.0.1', Number(process.env.PORT));
process.once('SIGTERM', () => process.exit(0));
