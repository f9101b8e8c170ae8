/**
 * The raw baseline of the REST benchmark (issue 28), in its own process: uWebSockets.js alone
 * answering the lobby command routes the benchmark drives, after doing the least any server must
 * do for them: read the session cookie (401 without it) and the whole body, parse the body as
 * JSON (400 when it is not), answer `{"ok":true}`. None of our door (framing checks, schemas,
 * in-flight count, observers), no session lookup, no stores: the ceiling of the transport.
 *
 * `tsx bench/rest-raw-server.ts` with PORT.
 */
import uWS from 'uWebSockets.js';

const OK = '{"ok":true}';
const COOKIE = 'league_session=';

const app = uWS.App();
app.get('/healthz', (res) => void res.end(OK));
app.post('/api/lobbies/:code/:command', (res, req) => {
  const cookie = req.getHeader('cookie');
  const at = cookie.indexOf(COOKIE);
  const session = at < 0 ? '' : cookie.slice(at + COOKIE.length).split(';', 1)[0];
  let aborted = false;
  res.onAborted(() => (aborted = true));
  const chunks: Buffer[] = [];
  res.onData((chunk, last) => {
    // uWS reuses the chunk's memory once this returns: copy it.
    chunks.push(Buffer.from(chunk.slice(0)));
    if (!last || aborted) return;
    let status = '200 OK';
    let answer = OK;
    try {
      JSON.parse(Buffer.concat(chunks).toString('utf8'));
      if (session === '') [status, answer] = ['401 Unauthorized', '{"error":"login required"}'];
    } catch {
      [status, answer] = ['400 Bad Request', '{"error":"malformed JSON body"}'];
    }
    res.cork(() => res.writeStatus(status).writeHeader('content-type', 'application/json').end(answer));
  });
});
app.listen('127.0.0.1', Number(process.env.PORT), (socket) => {
  if (!socket) throw new Error(`cannot listen on port ${process.env.PORT}`);
});
process.once('SIGTERM', () => process.exit(0));
