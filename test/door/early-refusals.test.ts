import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { grantPremium } from '../api/identity/identity-fixtures';
import { buildBsp } from '../support/bsp-file';
import { startTestServerWithLogin, type TestServerWithLogin } from '../support/login';

/*
 * An early refusal (sent before the body was read) reaches the client that is still sending it,
 * whichever client: the rest of the matrix of issue 20 (fetch 2 KB -> 401, fetch 96 MB -> 413,
 * node:http 2 MB JSON -> 413 and curl 2 KB -> 401 are in test/api/door/one-door.test.ts).
 */
const ADMIN = '76561198000002201';
const MB = 1024 * 1024;
let server: TestServerWithLogin;
let cookie: string;
let dir: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN });
  const admin = await server.login(ADMIN);
  await grantPremium(server, admin.user.id, Date.now(), 30);
  cookie = admin.cookie;
  dir = await mkdtemp(join(tmpdir(), 'early-refusals-'));
}, 60_000);
afterAll(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const BOUNDARY = 'early-refusal';
/** The part's head and the start of a well-formed map: what follows is the bulk of a big file. */
const multipartHead = Buffer.concat([
  Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="cp_probe.bsp"\r\nContent-Type: application/octet-stream\r\n\r\n`),
  buildBsp(),
]);

/**
 * node:http sending `bytes` of body in 64 KB writes, with backpressure, then reading the answer;
 * `chunked` leaves the length undeclared (a stream), as a client piping a file does.
 */
function nodeHttp(path: string, headers: Record<string, string>, head: Buffer, bytes: number, chunked = false): Promise<number> {
  return new Promise((resolve, reject) => {
    const total = head.length + bytes;
    const req = httpRequest(`${server.url}${path}`, { method: 'POST', headers: chunked ? headers : { ...headers, 'content-length': String(total) } }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    // The answer may come while this side still writes: a write error after it is not the outcome.
    req.on('error', reject);
    const chunk = Buffer.alloc(64 * 1024);
    let left = bytes;
    req.write(head);
    const pump = () => {
      while (left > 0 && !req.destroyed) {
        const n = Math.min(left, chunk.length);
        left -= n;
        if (!req.write(chunk.subarray(0, n))) return void req.once('drain', pump);
      }
      req.end();
    };
    pump();
  });
}

async function curl(args: string[]): Promise<string> {
  const { stdout } = await promisify(execFile)('curl', ['-sS', '-o', '/dev/null', '-w', '%{http_code}', ...args]);
  return stdout;
}

describe('node:http', () => {
  it('an anonymous 2 KB upload is answered 401', async () => {
    expect(await nodeHttp('/api/maps/upload', { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, multipartHead, 2 * 1024)).toBe(401);
  });

  it('a 96 MB upload is answered 413', async () => {
    expect(await nodeHttp('/api/maps/upload', { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, multipartHead, 96 * MB)).toBe(413);
  }, 60_000);

  it('a 96 MB upload streamed without a declared length is answered 413', async () => {
    expect(await nodeHttp('/api/maps/upload', { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` }, multipartHead, 96 * MB, true)).toBe(413);
  }, 60_000);
});

describe('curl', () => {
  it('a 96 MB upload is answered 413', async () => {
    const file = join(dir, 'cp_big.bsp');
    await writeFile(file, Buffer.alloc(96 * MB));
    expect(await curl(['-H', `cookie: ${cookie}`, '-F', `file=@${file}`, `${server.url}/api/maps/upload`])).toBe('413');
  }, 60_000);

  it('a declared 2 MB JSON body is answered 413', async () => {
    const file = join(dir, 'big.json');
    await writeFile(file, Buffer.alloc(2 * MB, 0x20));
    expect(await curl(['-H', `cookie: ${cookie}`, '-H', 'content-type: application/json', '--data-binary', `@${file}`, `${server.url}/api/lobbies`])).toBe('413');
  });
});

describe('fetch', () => {
  it('a declared 2 MB JSON body is answered 413', async () => {
    const res = await fetch(`${server.url}/api/lobbies`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: Buffer.alloc(2 * MB, 0x20) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: expect.any(String) });
  });
});
