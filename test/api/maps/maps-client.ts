import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { MapEntry } from '../../../schema/maps';

export interface Credential {
  cookie?: string;
  bearer?: string;
}

const authHeaders = (as: Credential): Record<string, string> => ({
  ...(as.cookie ? { cookie: as.cookie } : {}),
  ...(as.bearer ? { authorization: `Bearer ${as.bearer}` } : {}),
});

/** A real multipart/form-data upload, as a browser's FormData or `curl -F` sends it. */
export async function uploadMap(
  server: { url: string },
  as: Credential,
  fileName: string,
  bytes: Buffer,
  displayName?: string,
  headers: Record<string, string> = {},
): Promise<Response> {
  const form = new FormData();
  if (displayName !== undefined) form.append('display_name', displayName);
  form.append('file', new Blob([new Uint8Array(bytes)], { type: 'application/octet-stream' }), fileName);
  return fetch(`${server.url}/api/maps/upload`, { method: 'POST', headers: { ...authHeaders(as), ...headers }, body: form });
}

export async function listMaps(server: { url: string }): Promise<MapEntry[]> {
  const response = await fetch(`${server.url}/api/maps/`);
  if (response.status !== 200) throw new Error(`GET /api/maps/ answered ${response.status}`);
  return (await response.json()) as MapEntry[];
}

export async function catalog(server: { url: string }): Promise<string[]> {
  return (await (await fetch(`${server.url}/api/servers/maps`)).json()) as string[];
}

export function deleteMap(server: { url: string }, as: Credential, id: number): Promise<Response> {
  return fetch(`${server.url}/api/maps/${id}`, { method: 'DELETE', headers: authHeaders(as) });
}

/** Files in DATA_DIR/maps (stored maps) and in its .incoming directory (temporaries). */
export async function filesOnDisk(dataDir: string): Promise<{ stored: string[]; temporary: string[] }> {
  const root = join(dataDir, 'maps');
  const stored = (await readdir(root).catch(() => [])).filter((f) => f.endsWith('.bsp'));
  const temporary = await readdir(join(root, '.incoming')).catch(() => []);
  return { stored: stored.sort(), temporary };
}

export async function mapRows(db: { em(): { execute<T>(sql: string, params?: unknown[]): Promise<T> } }, name: string) {
  return db.em().execute<Array<{ id: number; status: string; rejection_reason: string | null; deleted_at: Date | null }>>(
    'select id, status, rejection_reason, deleted_at from maps where name = ? order by id',
    [name],
  );
}
