import type { LoggedIn } from '../../support/login';

let next = 0;

/**
 * A new user per call (a user may sit in one lobby at a time, so tests do not share them).
 * Platform ids are 17-digit numbers; the process id keeps parallel test files apart.
 */
export function freshUser(server: { login(platformId: string): Promise<LoggedIn> }): Promise<LoggedIn> {
  next += 1;
  const id = `7656119${String(process.pid % 100_000).padStart(5, '0')}${String(next).padStart(5, '0')}`;
  return server.login(id);
}
