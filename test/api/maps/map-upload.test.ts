import { execFile, execFileSync } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServerWithLogin, type TestServerWithLogin } from '../../support/login';
import { buildBsp } from '../../support/bsp-file';
import { call, grantPremium, issueKey, setAdmin } from '../identity/identity-fixtures';
import { catalog, deleteMap, filesOnDisk, listMaps, mapRows, uploadMap, type Credential } from './maps-client';

const run = promisify(execFile);
function curlInstalled(): boolean {
  try {
    execFileSync('curl', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const MEMBER = '76561198000001301';
const OTHER_MEMBER = '76561198000001302';
const FREE_USER = '76561198000001303';
const ADMIN = '76561198000001304';

let server: TestServerWithLogin;
let member: Credential & { id: number };
let otherMember: Credential & { id: number };
let freeUser: Credential & { id: number };
let admin: Credential & { id: number };
let dataDir: string;

beforeAll(async () => {
  server = await startTestServerWithLogin({ ADMIN_PLATFORM_IDS: ADMIN });
  dataDir = server.env.DATA_DIR;
  const login = async (platformId: string) => {
    const session = await server.login(platformId);
    return { cookie: session.cookie, id: session.user.id };
  };
  member = await login(MEMBER);
  otherMember = await login(OTHER_MEMBER);
  freeUser = await login(FREE_USER);
  admin = await login(ADMIN);
  await grantPremium(server, member.id, Date.now());
  await grantPremium(server, otherMember.id, Date.now());
});
afterAll(async () => server?.close());

describe('uploading a map', () => {
  it('stores a valid map, answers 201 with its entry, and lists it', async () => {
    const bytes = buildBsp({ revision: 101 });
    const response = await uploadMap(server, member, 'cp_upload_ok.bsp', bytes, 'Upload OK');
    expect(response.status).toBe(201);
    const entry = await response.json();
    expect(entry).toEqual({
      id: expect.any(Number),
      name: 'cp_upload_ok',
      display_name: 'Upload OK',
      size_bytes: bytes.length,
      sha256: (await import('node:crypto')).createHash('sha256').update(bytes).digest('hex'),
      uploader_id: member.id,
      status: 'active',
      created_at: expect.any(String),
    });
    expect(await listMaps(server)).toContainEqual(entry);
    const stored = await readFile(join(dataDir, 'maps', `${entry.id}-cp_upload_ok.bsp`));
    expect(stored.equals(bytes)).toBe(true);
    expect((await filesOnDisk(dataDir)).temporary).toEqual([]);
  });

  it('puts an active map in the server map catalog and a lobby map pool', async () => {
    const response = await uploadMap(server, member, 'koth_catalog_test.bsp', buildBsp({ revision: 102 }));
    expect(response.status).toBe(201);
    expect(await catalog(server)).toContain('koth_catalog_test');
    const lobby = await call(server, '/api/lobbies', {
      method: 'POST',
      cookie: member.cookie,
      body: { format: '6v6', map_pool: ['koth_catalog_test', 'cp_process_final'] },
    });
    expect(lobby.status).toBe(200);
    expect((await lobby.json()).lobby.map_pool).toEqual(['koth_catalog_test', 'cp_process_final']);
  });

  it('names the display names of active maps, the file name when none was given', async () => {
    const response = await uploadMap(server, member, 'pl_no_display.bsp', buildBsp({ revision: 103 }));
    expect(response.status).toBe(201);
    const names = (await (await fetch(`${server.url}/api/maps/names`)).json()) as string[];
    expect(names).toEqual(expect.arrayContaining(['Upload OK', 'pl_no_display']));
  });

  it('accepts a premium key, and audits and rate-counts that key use', async () => {
    const key = await issueKey(server, member.cookie!, 'premium', { label: 'uploader bot' });
    const response = await uploadMap(server, { bearer: key.raw }, 'cp_by_key.bsp', buildBsp({ revision: 104 }));
    expect(response.status).toBe(201);
    const keys = (await (await call(server, '/api/premium/api-keys', { cookie: member.cookie })).json()) as Array<{ id: number; audit: Array<{ endpoint: string; method: string; status: number }> }>;
    expect(keys.find((k) => k.id === key.id)!.audit).toContainEqual(expect.objectContaining({ endpoint: '/api/maps/upload', method: 'POST', status: 201 }));
  });

  it('refuses a premium key over its rate limit with 429 before reading the file', async () => {
    const key = await issueKey(server, member.cookie!, 'premium', { label: 'busy bot' });
    for (let i = 0; i < 60; i++) expect((await call(server, '/api/premium/api-keys/current', { bearer: key.raw })).status).toBe(200);
    const response = await uploadMap(server, { bearer: key.raw }, 'cp_rate_limited.bsp', buildBsp({ revision: 107 }));
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(await mapRows(server.server.db, 'cp_rate_limited')).toEqual([]);
  });

  it('is shown in the OpenAPI document as a multipart/form-data upload', async () => {
    const document = await (await fetch(`${server.url}/openapi.json`)).json();
    const upload = document.paths['/api/maps/upload'].post;
    expect(Object.keys(upload.requestBody.content)).toEqual(['multipart/form-data']);
    expect(Object.keys(upload.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '403', '409', '413', '429']));
  });

  it('lets an admin without premium upload', async () => {
    const response = await uploadMap(server, admin, 'cp_admin_map.bsp', buildBsp({ revision: 105 }));
    expect(response.status).toBe(201);
  });

  it('refuses a user without premium with 403 and stores nothing', async () => {
    const response = await uploadMap(server, freeUser, 'cp_free_user.bsp', buildBsp({ revision: 106 }));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ error: expect.stringContaining('premium') });
    expect(await mapRows(server.server.db, 'cp_free_user')).toEqual([]);
  });

  it('refuses an upload without credentials with 401', async () => {
    const response = await uploadMap(server, {}, 'cp_anonymous.bsp', buildBsp());
    expect(response.status).toBe(401);
  });

  it('tells premium members and admins they may upload, and others not', async () => {
    const allowed = async (as: Credential) => (await (await call(server, '/api/maps/can-upload', { cookie: as.cookie })).json()).allowed;
    expect(await allowed(member)).toBe(true);
    expect(await allowed(admin)).toBe(true);
    expect(await allowed(freeUser)).toBe(false);
  });
});

describe('a file that is not a playable map', () => {
  it.each([
    ['without the VBSP magic', buildBsp({ magic: 'IBSP' }), /VBSP magic/],
    ['with a BSP version the game does not read', buildBsp({ version: 21 }), /BSP version 21/],
    ['truncated inside the header', buildBsp().subarray(0, 700), /truncated/],
    ['truncated after the header', buildBsp({ padding: 8192 }).subarray(0, 4000), /past the end/],
    ['with a lump pointing outside the file', buildBsp({ forgeLump: { index: 35, offset: 50_000, length: 4096 } }), /lump 35/],
  ])('is refused with 400 when %s, leaving no file and a rejected row', async (_what, bytes, message) => {
    const name = `cp_bad_${Math.random().toString(36).slice(2, 10)}`;
    const response = await uploadMap(server, member, `${name}.bsp`, bytes);
    expect(response.status).toBe(400);
    expect((await response.json()).error).toMatch(message);
    expect(await mapRows(server.server.db, name)).toEqual([expect.objectContaining({ status: 'rejected', rejection_reason: expect.stringMatching(message) })]);
    const files = await filesOnDisk(dataDir);
    expect(files.temporary).toEqual([]);
    expect(files.stored.some((f) => f.includes(name))).toBe(false);
  });

  it.each(['CP_Upper.bsp', 'cp_map.vpk', 'ab.bsp', 'cp map.bsp'])('is refused with 400 when named %s', async (fileName) => {
    const response = await uploadMap(server, member, fileName, buildBsp());
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain('file name');
  });

  it('is refused with 400 when the body has no file part', async () => {
    const form = new FormData();
    form.append('display_name', 'nothing');
    const response = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { cookie: member.cookie! }, body: form });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain('file');
  });

  it('is refused with 400 when the multipart content type has no boundary', async () => {
    const response = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { cookie: member.cookie!, 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(response.status).toBe(400);
    expect((await response.json()).error).toContain('multipart');
  });

  it('is refused with 400 when the body is not multipart', async () => {
    const response = await fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { cookie: member.cookie!, 'content-type': 'application/octet-stream' }, body: new Uint8Array(buildBsp()) });
    expect(response.status).toBe(400);
  });
});

describe('names and contents already taken', () => {
  it('refuses a name that is already active with 409', async () => {
    expect((await uploadMap(server, member, 'cp_taken_name.bsp', buildBsp({ revision: 201 }))).status).toBe(201);
    const second = await uploadMap(server, otherMember, 'cp_taken_name.bsp', buildBsp({ revision: 202 }));
    expect(second.status).toBe(409);
    expect((await second.json()).error).toContain('cp_taken_name');
  });

  it('refuses the same content under another name with 409 naming the active map', async () => {
    const bytes = buildBsp({ revision: 203 });
    const first = await uploadMap(server, member, 'cp_original.bsp', bytes);
    expect(first.status).toBe(201);
    const copy = await uploadMap(server, otherMember, 'cp_copycat.bsp', bytes);
    expect(copy.status).toBe(409);
    expect((await copy.json()).error).toBe(`the same file is already active as map "cp_original" (id ${(await first.json()).id})`);
    expect(await catalog(server)).not.toContain('cp_copycat');
  });

  it('gives one 201 and one 409 to two concurrent uploads of one name', async () => {
    const [a, b] = await Promise.all([
      uploadMap(server, member, 'cp_race_name.bsp', buildBsp({ revision: 301, padding: 2_000_000 })),
      uploadMap(server, otherMember, 'cp_race_name.bsp', buildBsp({ revision: 302, padding: 2_000_000 })),
    ]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect((await listMaps(server)).filter((m) => m.name === 'cp_race_name')).toHaveLength(1);
    expect((await filesOnDisk(dataDir)).stored.filter((f) => f.endsWith('-cp_race_name.bsp'))).toHaveLength(1);
  });
});

describe('deleting a map', () => {
  it('is refused with 403 to another member, and done for the uploader, after which it is gone', async () => {
    const entry = await (await uploadMap(server, member, 'cp_to_delete.bsp', buildBsp({ revision: 401 }))).json();
    expect((await deleteMap(server, otherMember, entry.id)).status).toBe(403);
    expect((await deleteMap(server, member, entry.id)).status).toBe(204);
    expect((await listMaps(server)).map((m) => m.id)).not.toContain(entry.id);
    expect(await catalog(server)).not.toContain('cp_to_delete');
    expect((await filesOnDisk(dataDir)).stored).not.toContain(`${entry.id}-cp_to_delete.bsp`);
  });

  it('is done by an admin for anyone', async () => {
    const entry = await (await uploadMap(server, member, 'cp_admin_deletes.bsp', buildBsp({ revision: 402 }))).json();
    expect((await deleteMap(server, admin, entry.id)).status).toBe(204);
  });

  it('answers 404 for a map already deleted, or unknown', async () => {
    const entry = await (await uploadMap(server, member, 'cp_twice_deleted.bsp', buildBsp({ revision: 403 }))).json();
    expect((await deleteMap(server, member, entry.id)).status).toBe(204);
    expect((await deleteMap(server, member, entry.id)).status).toBe(404);
    expect((await deleteMap(server, member, 987_654)).status).toBe(404);
  });

  it('frees the name for a new upload', async () => {
    const entry = await (await uploadMap(server, member, 'cp_reused_name.bsp', buildBsp({ revision: 404 }))).json();
    expect((await deleteMap(server, member, entry.id)).status).toBe(204);
    expect((await uploadMap(server, otherMember, 'cp_reused_name.bsp', buildBsp({ revision: 405 }))).status).toBe(201);
  });
});

describe('curl, as the README shows it', () => {
  it.runIf(curlInstalled())('uploads a 3 MB map with a premium key (Expect: 100-continue and all)', async () => {
    const key = await issueKey(server, member.cookie!, 'premium', { label: 'curl' });
    const bytes = buildBsp({ revision: 601, padding: 3_000_000 });
    const path = join(dataDir, 'cp_from_curl.bsp');
    await writeFile(path, bytes);
    const { stdout } = await run('curl', [
      '-sS', '-w', '\\n%{http_code}', '-H', `Authorization: Bearer ${key.raw}`,
      '-F', `file=@${path}`, '-F', 'display_name=From curl', `${server.url}/api/maps/upload`,
    ]);
    const [body, status] = stdout.trim().split('\n');
    expect(status).toBe('201');
    expect(JSON.parse(body)).toMatchObject({ name: 'cp_from_curl', display_name: 'From curl', size_bytes: bytes.length });
  });
});
