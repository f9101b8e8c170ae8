/**
 * What `NODE_ENV=production` refuses to start with. Each rule guards against a deployment that
 * would look healthy while doing the wrong thing: forged sessions, anyone logging in as anyone,
 * game servers "reserved" on a simulator, or state kept only in the process that dies with it.
 * The first broken rule is reported as one line naming its variable.
 */
export interface ProductionEnv {
  NODE_ENV: string;
  SESSION_SECRET?: string;
  DEV_LOGIN?: string;
  CLOUD_PROVIDER: string;
  ALLOW_LOCAL_SERVERS?: string;
  DATABASE_URL?: string;
  REDIS_URL?: string;
  ALLOW_EMBEDDED?: string;
}

export interface ProductionRefusal {
  variable: string;
  rule: string;
}

const RULES: Array<{ variable: string; rule: string; broken: (e: ProductionEnv) => boolean }> = [
  { variable: 'SESSION_SECRET', rule: 'required when NODE_ENV=production', broken: (e) => !e.SESSION_SECRET },
  { variable: 'DEV_LOGIN', rule: 'must not be 1 when NODE_ENV=production (anyone could log in as anyone)', broken: (e) => e.DEV_LOGIN === '1' },
  {
    variable: 'CLOUD_PROVIDER',
    rule: 'local runs game-server simulators; set a real provider, or ALLOW_LOCAL_SERVERS=1, when NODE_ENV=production',
    broken: (e) => e.CLOUD_PROVIDER === 'local' && e.ALLOW_LOCAL_SERVERS !== '1',
  },
  {
    variable: 'DATABASE_URL',
    rule: 'required when NODE_ENV=production (or ALLOW_EMBEDDED=1 for the embedded database)',
    broken: (e) => !e.DATABASE_URL && e.ALLOW_EMBEDDED !== '1',
  },
  {
    variable: 'REDIS_URL',
    rule: 'required when NODE_ENV=production (or ALLOW_EMBEDDED=1 for the in-process live store)',
    broken: (e) => !e.REDIS_URL && e.ALLOW_EMBEDDED !== '1',
  },
];

export function productionRefusal(env: ProductionEnv): ProductionRefusal | undefined {
  if (env.NODE_ENV !== 'production') return undefined;
  const broken = RULES.find((r) => r.broken(env));
  return broken && { variable: broken.variable, rule: broken.rule };
}
