import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';

/*
 * The benchmarks' HTTP client: node:http on kept-alive connections. fetch (undici) spent about half
 * a millisecond of the driver's own time per request, which the latency figures would have charged
 * to the server.
 */
export function keepAliveAgent(maxSockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets });
}

export interface HttpAnswer {
  status: number;
  text: string;
}

export function httpRequest(agent: Agent, method: string, url: string, options: { body?: unknown; cookie?: string } = {}): Promise<HttpAnswer> {
  const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string | number> = {};
  if (payload !== undefined) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = Buffer.byteLength(payload);
  }
  if (options.cookie) headers.cookie = options.cookie;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, agent, headers });
    req.on('error', reject);
    req.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
    });
    req.end(payload);
  });
}

/** POST with a JSON body; a status of 300 or more rejects with the answer. */
export async function postOk(agent: Agent, url: string, body: unknown, cookie?: string): Promise<unknown> {
  const answer = await httpRequest(agent, 'POST', url, { body, cookie });
  if (answer.status >= 300) throw new Error(`POST ${url} answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text) as unknown;
}

export async function getOk(agent: Agent, url: string, cookie?: string): Promise<unknown> {
  const answer = await httpRequest(agent, 'GET', url, { cookie });
  if (answer.status >= 300) throw new Error(`GET ${url} answered ${answer.status}: ${answer.text}`);
  return JSON.parse(answer.text) as unknown;
}

/** CPU time (user + system) a process has used so far, in milliseconds (Linux /proc). */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime), in clock ticks of 1/100 s on Linux.
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}
