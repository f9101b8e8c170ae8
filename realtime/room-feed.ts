import type { Logger } from 'pino';
import { requestIdOf } from '../src/door/request-id';
import { notifyObservers, type RequestObserver } from '../src/observability/request-observer';
import type * as v from 'valibot';
import { parseInput } from '../schema/parse-input';
import type { AckError } from '../schema/realtime';
import type { ErrorStatus } from './realtime-ports';

/** The socket as an area's feed uses it (area events are not all in the lobby protocol's types). */
export interface RoomSocket {
  id: string;
  data: { userId: number | null };
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  emit(event: string, payload: unknown): unknown;
  join(room: string): unknown;
  leave(room: string): unknown;
}

type Ack = (answer: unknown) => void;

/**
 * One area's live feed of a record (a team, a thread, a tournament): `<area>:subscribe {id}` joins
 * the record's room and acks its snapshot; `<area>:unsubscribe {id}` leaves it; the area pushes
 * its updates through RoomFanout.deliver, in version order.
 */
export interface RoomFeed<T> {
  subscribe: string;
  unsubscribe: string;
  payload: v.GenericSchema<unknown, { id: number }>;
  room(id: number): string;
  /** The subscribe ack's snapshot as the socket's user may see it; throws the REST route's error (a 404 for none). */
  read(id: number, userId: number | null): Promise<T>;
  /** The snapshot's version, for a feed whose updates carry one (a thread's posts do not). */
  version?(snapshot: T): number;
}

interface Held {
  /** The version of the snapshot acknowledged; null while it is being read. */
  since: number | null;
  /** What the room got while the snapshot was being read. */
  buffered: Array<{ event: string; payload: unknown; version: number | undefined }>;
  send(event: string, payload: unknown): void;
}

/**
 * An area feed's deliveries on this instance, with the lobby feed's promise (LobbyFanout): after
 * the subscribe ack a socket gets exactly the updates with versions above its snapshot's, in
 * order, each once, whichever instance made them. A subscribing socket is "held" from before its
 * snapshot read: room deliveries skip it (`except`, only while someone is held) and are kept for
 * it; right after the ack it is sent those newer than its snapshot, and it stays held, skipping
 * what is not newer (a delivery read before the snapshot but sent after it), until one is.
 * An update without a version (a thread's post) is sent to a held socket right after its ack.
 */
export class RoomFanout {
  readonly #held = new Map<string, Map<string, Held>>();

  /** `emit`: one room broadcast to this instance's sockets but `except`. */
  constructor(private readonly emit: (room: string, except: readonly string[], event: string, payload: unknown) => void) {}

  /** One update of `room`, in feed order. */
  deliver(room: string, event: string, payload: unknown, version?: number): void {
    const held = this.#held.get(room);
    const except: string[] = [];
    for (const [socketId, each] of held ?? []) {
      if (each.since === null) {
        each.buffered.push({ event, payload, version });
        except.push(socketId);
      } else if (version !== undefined && version <= each.since) except.push(socketId);
      else held!.delete(socketId); // the next one after its snapshot: from here on, the room's
    }
    if (held?.size === 0) this.#held.delete(room);
    this.emit(room, except, event, payload);
  }

  /** Before the snapshot read: deliveries of `room` stop reaching the socket and are kept for it. */
  hold(room: string, socketId: string, send: Held['send']): void {
    let held = this.#held.get(room);
    if (!held) this.#held.set(room, (held = new Map()));
    held.set(socketId, { since: null, buffered: [], send });
  }

  /** Right after the ack of a snapshot at `since` (undefined: the feed has no versions). */
  release(room: string, socketId: string, since: number | undefined): void {
    const each = this.#held.get(room)?.get(socketId);
    if (!each) return;
    const newer = each.buffered.filter((b) => since === undefined || b.version === undefined || b.version > since);
    if (since !== undefined && newer.length === 0) return void Object.assign(each, { since, buffered: [] });
    this.drop(room, socketId);
    for (const b of newer) each.send(b.event, b.payload);
  }

  /** The socket stops watching `room` (unsubscribe, a failed read). */
  drop(room: string, socketId: string): void {
    const held = this.#held.get(room);
    held?.delete(socketId);
    if (held?.size === 0) this.#held.delete(room);
  }

  /** The socket is gone. */
  forget(socketId: string): void {
    for (const room of [...this.#held.keys()]) this.drop(room, socketId);
  }
}

export interface FeedAnswers {
  /** The one error mapping of the doors: what REST would answer for an error; null for a fault. */
  errorStatus: ErrorStatus;
  logger: Logger;
  /** The request observers (access log, metrics): every event is reported as a request of the socket door. */
  observers: readonly RequestObserver[];
}

/** Serves an area's feed on one socket. */
export function serveRoomFeed<T>(socket: RoomSocket, feed: RoomFeed<T>, fanout: RoomFanout, answers: FeedAnswers): void {
  answerEvent(socket, feed.subscribe, answers, async (payload) => {
    const parsed = parseInput(feed.payload, payload, 'payload');
    if (!parsed.ok) return ackError(400, parsed.message);
    const room = feed.room(parsed.value.id);
    // Held before anything can be delivered, then in the room at once (the subscription limit
    // counts it): what the room gets during the read waits for the ack (see RoomFanout).
    fanout.hold(room, socket.id, (event, update) => socket.emit(event, update));
    await socket.join(room);
    let snapshot: T;
    try {
      snapshot = await feed.read(parsed.value.id, socket.data.userId);
    } catch (error) {
      fanout.drop(room, socket.id);
      await socket.leave(room);
      throw error;
    }
    return afterAck(snapshot, () => fanout.release(room, socket.id, feed.version?.(snapshot)));
  });
  answerEvent(socket, feed.unsubscribe, answers, async (payload) => {
    const parsed = parseInput(feed.payload, payload, 'payload');
    if (!parsed.ok) return ackError(400, parsed.message);
    const room = feed.room(parsed.value.id);
    fanout.drop(room, socket.id);
    await socket.leave(room);
    return { ok: true };
  });
  socket.on('disconnect', () => fanout.forget(socket.id));
}

const AFTER_ACK = Symbol('after ack');
type AfterAck = { answer: unknown; [AFTER_ACK]: () => void };

/** A handler's answer, and what to do in the same turn right after it is acknowledged. */
export function afterAck(answer: unknown, then: () => void): AfterAck {
  return { answer, [AFTER_ACK]: then };
}

const REPORTED = Symbol('reported elsewhere');

/** A handler's answer that went through the exchange, which reported it to the observers with its own id. */
export function reportedElsewhere(answer: unknown): { answer: unknown; [REPORTED]: true } {
  return { answer, [REPORTED]: true };
}

/**
 * One socket event's answer (or refusal before any handler) to the observers (access log, metrics)
 * as a request of the socket door. `route`: the event's name, or UNMATCHED_ROUTE for one no handler
 * knows (label sets stay bounded).
 */
export function reportSocketEvent(
  answers: Pick<FeedAnswers, 'observers' | 'logger'>,
  route: string,
  status: number,
  started: number,
  requestId = requestIdOf(undefined),
  method: 'EMIT' | 'CONNECT' = 'EMIT',
): void {
  const record = { door: 'socket' as const, method, route, status, durationMs: performance.now() - started, requestId };
  notifyObservers(answers.observers, record, answers.logger);
}

/**
 * How a socket event is answered, whatever the area: its handler's answer is its ack, exactly once;
 * an error is acked as REST would answer it (status, error, and the seconds of its Retry-After), a
 * fault as a logged 500; and the event is reported to the observers as a request of the socket door
 * (unless the handler answered `reportedElsewhere`: it ran through the exchange, which reports it).
 */
export function answerEvent(
  socket: Pick<RoomSocket, 'id' | 'on'>,
  event: string,
  answers: FeedAnswers,
  handle: (payload: unknown) => Promise<unknown>,
): void {
  socket.on(event, (...args: unknown[]) => {
    const ack = typeof args[args.length - 1] === 'function' ? (args.pop() as Ack) : () => undefined;
    const started = performance.now();
    const requestId = requestIdOf(undefined);
    const reply = (answer: unknown) => {
      ack(answer);
      reportSocketEvent(answers, event, isAckError(answer) ? answer.status : 200, started, requestId);
    };
    const answered = (result: unknown) => {
      const wrapped = typeof result === 'object' && result !== null ? result : {};
      if (REPORTED in wrapped) return ack((wrapped as unknown as { answer: unknown }).answer);
      const then = AFTER_ACK in wrapped ? (wrapped as AfterAck) : undefined;
      reply(then ? then.answer : result);
      then?.[AFTER_ACK]();
    };
    handle(args[0]).then(answered, (error: unknown) => {
      const known = answers.errorStatus(error);
      if (known) return reply(ackError(known.status, known.message, known.headers));
      answers.logger.error({ err: error, event, socketId: socket.id, requestId }, 'socket event failed');
      reply(ackError(500, 'internal error'));
    });
  });
}

/** A refusal as an ack: the REST route's status and error, and `retry_after_s` where REST sends Retry-After. */
export function ackError(status: number, error: string, headers: Record<string, string> = {}): AckError {
  const retryAfter = Number(headers['Retry-After'] ?? headers['retry-after']);
  return Number.isFinite(retryAfter) && retryAfter > 0 ? { error, status, retry_after_s: retryAfter } : { error, status };
}

/** An ack that refuses (`{error, status}`), as `ackError` writes it. */
export function isAckError(reply: unknown): reply is AckError {
  if (typeof reply !== 'object' || reply === null || Array.isArray(reply)) return false;
  const record = reply as Record<string, unknown>;
  return typeof record.error === 'string' && typeof record.status === 'number' && record.ok !== true;
}
