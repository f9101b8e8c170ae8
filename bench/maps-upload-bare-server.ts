/**
 * The baseline of `npm run bench -- maps-upload`: a bare native uWS route that reads a body the
 * way the upload route does (onData, each chunk copied) and discards it. What the real route
 * costs beyond this is busboy, hashing, the header check, the disk and the database.
 */
import uWS from 'uWebSockets.js';

const app = uWS.App();
app.post('/api/maps/upload', (res) => {
  let bytes = 0;
  let aborted = false;
  res.onAborted(() => (aborted = true));
  res.onData((chunk, isLast) => {
    bytes += Buffer.from(new Uint8Array(chunk)).length;
    if (isLast && !aborted) res.cork(() => res.writeStatus('201 Created').end(JSON.stringify({ bytes })));
  });
});
app.get('/healthz', (res) => {
  res.end('ok');
});
app.listen('127.0.0.1', Number(process.env.PORT), (socket) => {
  if (!socket) process.exit(1);
});
process.once('SIGTERM', () => process.exit(0));
