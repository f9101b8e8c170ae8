/** Connections a server keeps to Postgres unless told otherwise. */
export const DEFAULT_POOL_SIZE = 10;

/** The embedded server's connection limit for a pool: headroom, as sockets the pool has dropped may still count while they close. */
export const embeddedConnectionsFor = (poolSize: number): number => poolSize * 2;
