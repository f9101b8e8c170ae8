import { connect, type Socket } from 'node:net';
import {
  encodeRconPacket,
  RconPacketReader,
  SERVERDATA_AUTH,
  SERVERDATA_AUTH_RESPONSE,
  SERVERDATA_EXECCOMMAND,
  SERVERDATA_RESPONSE_VALUE,
  type RconPacket,
} from './rcon-packet';

export type RconFailure = 'unreachable' | 'auth' | 'timeout' | 'closed';

export class RconError extends Error {
  constructor(readonly failure: RconFailure, message: string) {
    super(message);
  }
}

export interface RconTarget {
  host: string;
  port: number;
  password: string;
  /** Per step (connect, auth, each command); default 3 s. */
  timeoutMs?: number;
}

/**
 * A Source RCON connection. A command's answer may span several RESPONSE_VALUE packets with
 * nothing marking the last one, so every command is followed by an empty RESPONSE_VALUE that the
 * server mirrors after finishing the command: its echo ends the answer (the "empty packet trick").
 */
export class RconConnection {
  private readonly reader = new RconPacketReader();
  private nextId = 1;
  private waiter: ((packet: RconPacket | Error) => void) | null = null;
  private readonly queued: RconPacket[] = [];
  private failure: RconError | null = null;
  private chain: Promise<unknown> = Promise.resolve();

  private constructor(private readonly socket: Socket, private readonly timeoutMs: number) {
    socket.on('data', (chunk) => {
      try {
        for (const packet of this.reader.push(chunk)) this.deliver(packet);
      } catch (error) {
        this.fail(new RconError('closed', (error as Error).message));
        socket.destroy();
      }
    });
    socket.on('close', () => this.fail(new RconError('closed', 'RCON connection closed')));
    socket.on('error', () => undefined);
  }

  static async open(target: RconTarget): Promise<RconConnection> {
    const timeoutMs = target.timeoutMs ?? 3_000;
    const socket = await new Promise<Socket>((resolve, reject) => {
      const s = connect({ host: target.host, port: target.port });
      const timer = setTimeout(() => {
        s.destroy();
        reject(new RconError('timeout', `RCON connect to ${target.host}:${target.port} timed out`));
      }, timeoutMs);
      s.once('connect', () => {
        clearTimeout(timer);
        resolve(s);
      });
      s.once('error', (error) => {
        clearTimeout(timer);
        reject(new RconError('unreachable', `RCON connect failed: ${error.message}`));
      });
    });
    const connection = new RconConnection(socket, timeoutMs);
    try {
      await connection.authenticate(target.password);
    } catch (error) {
      connection.close();
      throw error;
    }
    return connection;
  }

  /** Runs one command and returns its whole answer, however many packets it took. */
  exec(command: string): Promise<string> {
    const run = this.chain.then(() => this.execNow(command));
    this.chain = run.catch(() => undefined);
    return run;
  }

  close(): void {
    this.socket.destroy();
  }

  private async authenticate(password: string): Promise<void> {
    const id = this.nextId++;
    this.socket.write(encodeRconPacket({ id, type: SERVERDATA_AUTH, body: password }));
    for (;;) {
      const packet = await this.next();
      // srcds sends an empty RESPONSE_VALUE before the AUTH_RESPONSE; only the latter decides.
      if (packet.type !== SERVERDATA_AUTH_RESPONSE) continue;
      if (packet.id === -1) throw new RconError('auth', 'RCON password refused');
      if (packet.id === id) return;
    }
  }

  private async execNow(command: string): Promise<string> {
    const id = this.nextId++;
    const marker = this.nextId++;
    this.socket.write(encodeRconPacket({ id, type: SERVERDATA_EXECCOMMAND, body: command }));
    this.socket.write(encodeRconPacket({ id: marker, type: SERVERDATA_RESPONSE_VALUE, body: '' }));
    let answer = '';
    for (;;) {
      const packet = await this.next();
      if (packet.id === marker) break;
      if (packet.id === id && packet.type === SERVERDATA_RESPONSE_VALUE) answer += packet.body;
    }
    // srcds follows the mirrored empty packet with one carrying 0x00000100; drop it if it came.
    return answer;
  }

  private deliver(packet: RconPacket): void {
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(packet);
    } else {
      this.queued.push(packet);
    }
  }

  private fail(error: RconError): void {
    this.failure ??= error;
    if (this.waiter) {
      const waiter = this.waiter;
      this.waiter = null;
      waiter(error);
    }
  }

  private next(): Promise<RconPacket> {
    const queued = this.queued.shift();
    if (queued) return Promise.resolve(queued);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiter = null;
        reject(new RconError('timeout', 'RCON answer timed out'));
        this.socket.destroy();
      }, this.timeoutMs);
      this.waiter = (result) => {
        clearTimeout(timer);
        if (result instanceof Error) reject(result);
        else resolve(result);
      };
    });
  }
}

/** Opens a connection, runs the commands in order, closes: what one-off callers need. */
export async function rconRun(target: RconTarget, commands: readonly string[]): Promise<string[]> {
  const connection = await RconConnection.open(target);
  try {
    const answers: string[] = [];
    for (const command of commands) answers.push(await connection.exec(command));
    return answers;
  } finally {
    connection.close();
  }
}
