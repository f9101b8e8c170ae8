import type { NextFunction, Request, Response } from 'express';

/**
 * Two defects of uwebsockets-express, handled once here (docs/design/ARCHITECTURE.md):
 * - writing to a uWS response after the client went away throws inside uWS, so a late answer
 *   to an aborted request must become a no-op instead of an exception; it still emits 'finish'
 *   (with the status the handler chose), so the key audit and the in-flight count see it end;
 * - several Set-Cookie values would be joined into one header line, which browsers read as a
 *   single cookie, so each value is written as its own header;
 * - a HEAD answer would carry the body a handler ends with (uWS does not know HEAD), which the
 *   client reads as the start of the next response, so HEAD ends without one;
 * - the head and the body are corked apart (two socket writes per response): one cork holds both;
 * - an answer that says `Connection: close` (a shutdown's 503, a stalled body's 408) was written
 *   with the header yet left the connection open, so the client's next request on it met a
 *   closing server: such an answer now ends the connection, as the native door's does.
 */
interface UwsBackedResponse {
  aborted?: boolean;
  writableEnded?: boolean;
  res: { cork(cb: () => void): void; writeStatus(s: string): void; writeHeader(k: string, v: string): void; write(chunk: unknown): void; end(body?: unknown, closeConnection?: boolean): void; endWithoutBody(): void };
  finished?: boolean;
  outputData?: Array<{ data: unknown }>;
  _headerSent?: boolean;
}

const kOutHeaders = Symbol.for('kOutHeaders');

export function uwsResponseFixes(req: Request, res: Response, next: NextFunction): void {
  const raw = res as unknown as UwsBackedResponse & Record<string | symbol, unknown>;
  const originalEnd = res.end.bind(res) as (...args: unknown[]) => Response;
  const originalWriteHead = (res.writeHead as unknown as (...args: unknown[]) => void).bind(res);
  let endedAborted = false;
  const head = req.method === 'HEAD';
  const outHeaders = () => raw[kOutHeaders] as Record<string, unknown> | undefined;
  const closes = () => String(outHeaders()?.connection ?? '').toLowerCase() === 'close';
  /** The adapter's own end (uwebsockets-express ServerResponse), with uWS told to close after the answer. */
  const endAndClose = (body: unknown): Response => {
    if (raw.writableEnded) return res;
    if (!raw._headerSent) {
      // uWS writes its own `Connection: close` when told to close; one is enough.
      delete outHeaders()?.connection;
      res.writeHead(res.statusCode);
    }
    for (const chunk of raw.outputData ?? []) raw.res.write(chunk.data);
    raw.res.end(body ?? '', true);
    raw.finished = true;
    res.emit('finish');
    return res;
  };
  (res as unknown as { end: unknown }).end = (...args: unknown[]) => {
    if (!raw.aborted && !head) {
      // The adapter corks the head and the body separately: two sends per response. Inside one
      // outer cork (uWS runs a nested cork's callback as part of it) the whole answer is one send.
      let ended: Response = res;
      raw.res.cork(() => (ended = closes() ? endAndClose(args[0]) : originalEnd(...args)));
      return ended;
    }
    if (!raw.aborted) {
      if (raw.writableEnded) return res;
      if (!raw._headerSent) res.writeHead(res.statusCode);
      raw.res.cork(() => raw.res.endWithoutBody());
      raw.finished = true;
      res.emit('finish');
      return res;
    }
    if (!endedAborted) {
      endedAborted = true;
      res.emit('finish');
    }
    return res;
  };
  (res as unknown as { writeHead: unknown }).writeHead = (code: number, headers?: Record<string, unknown>) => {
    if (raw.aborted) return res;
    const all = (headers ?? (raw[kOutHeaders] as Record<string, unknown> | undefined) ?? {}) as Record<string, unknown>;
    const cookies = all['set-cookie'];
    if (!Array.isArray(cookies) || cookies.length < 2) return originalWriteHead(code, headers);
    const rest = { ...all };
    delete rest['set-cookie'];
    originalWriteHead(code, rest);
    raw.res.cork(() => {
      for (const cookie of cookies) raw.res.writeHeader('set-cookie', String(cookie));
    });
    return res;
  };
  next();
}
