import { call, type Call } from '../identity/identity-fixtures';

export interface Answer<T = any> {
  status: number;
  body: T;
}

/** JSON over real HTTP, as a site client or bot calls the servers routes. */
export async function api<T = any>(server: { url: string }, path: string, options: Call = {}): Promise<Answer<T>> {
  const response = await call(server, path, options);
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

export const freeBody = (over: Record<string, unknown> = {}) => ({
  region: 'eu-central',
  map: 'cp_process_final',
  config_preset: 'etf2l_6v6',
  rcon_password: 'rcon-secret-1',
  ...over,
});

/** Reads the reservation until `done` holds (the lifecycle runs on its own schedule); fails after 15 s. */
export { poll as until } from '../../support/poll';
