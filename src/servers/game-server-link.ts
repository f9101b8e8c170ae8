import { queryInfo, parseAddress } from '../integrations/source-query/a2s-client';
import type { ServerInfo } from '../integrations/source-query/a2s-packets';
import { RconError, rconRun } from '../integrations/source-rcon/rcon-client';

/** How the site reaches a reserved server: A2S for health, RCON for commands. */
export interface GameServerLink {
  /** null when the server does not answer within the timeout. */
  info(connectAddress: string, timeoutMs: number): Promise<ServerInfo | null>;
  /** Runs the commands in order; throws RconError (failure 'timeout'/'unreachable'/...) when it cannot. */
  rcon(rconAddress: string, password: string, commands: readonly string[], timeoutMs: number): Promise<string[]>;
}

export const sourceServerLink: GameServerLink = {
  async info(connectAddress, timeoutMs) {
    try {
      return await queryInfo(parseAddress(connectAddress, timeoutMs));
    } catch {
      return null;
    }
  },
  rcon(rconAddress, password, commands, timeoutMs) {
    const { host, port } = parseAddress(rconAddress);
    return rconRun({ host, port, password, timeoutMs }, commands);
  },
};

export { RconError };
