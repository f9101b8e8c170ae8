/**
 * A client process of the capacity benchmark: `tsx bench/realtime-idle-clients.ts <url> <count>`
 * opens `count` socket.io connections, each subscribed to the public lobby list, prints
 * `connected <count>` and then holds them, idle, until it is terminated.
 */
import { RawSocketIoClient } from './realtime-raw-client';

const [url, countText] = process.argv.slice(2);
const count = Number(countText);
const clients: RawSocketIoClient[] = [];
for (let i = 0; i < count; i += 100) {
  const batch = await Promise.all(Array.from({ length: Math.min(100, count - i) }, () => RawSocketIoClient.connect(url)));
  await Promise.all(batch.map((client) => client.emitWithAck('lobbies:subscribe')));
  clients.push(...batch);
}
process.stdout.write(`connected ${clients.length}\n`);
process.once('SIGTERM', () => {
  for (const client of clients) client.close();
  process.exit(0);
});
setInterval(() => undefined, 1 << 30);
