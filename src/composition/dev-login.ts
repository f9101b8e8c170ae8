import type { DoorRoutes } from '../door/door-routes';
import { devLoginRouter } from '../../rest/routes/dev-login-routes';
import type { Config } from '../config/config';
import type { UsersRepository } from '../db/users-repository';
import { DevLogin } from '../identity/dev-login';
import type { SessionStore } from '../identity/session-store';

export interface DevLoginAssembly {
  config: Pick<Config, 'devLogin' | 'nodeEnv' | 'publicUrl'>;
  users: UsersRepository;
  sessions: SessionStore;
  clock: () => number;
}

/** The dev login router; the login itself exists only when DEV_LOGIN=1 outside production. */
export function assembleDevLogin(input: DevLoginAssembly): DoorRoutes {
  const { config } = input;
  // loadConfig already refuses DEV_LOGIN=1 in production; this keeps a hand-built Config honest too.
  const on = config.devLogin && config.nodeEnv !== 'production';
  return devLoginRouter({
    devLogin: on ? new DevLogin({ users: input.users, sessions: input.sessions, clock: input.clock }) : null,
    publicUrl: config.publicUrl,
  });
}
