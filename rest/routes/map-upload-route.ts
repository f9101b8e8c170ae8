import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import type { HttpResponse } from 'uWebSockets.js';
import * as v from 'valibot';
import { describeIssues } from '../../schema/issue-message';
import { MapUploadFields } from '../../schema/maps';
import { mapsRoutes } from '../../schema/routes/maps-routes';
import type { UwsApp } from '../../host/uws-host';
import { runExchange, type Authenticate, type ExchangeDeps } from '../../src/door/exchange';
import { userOf, type Caller } from '../../src/identity/caller';
import { UPLOAD_DEADLINE_MS, type MapLibrary } from '../../src/maps/map-library';
import type { MapUpload } from '../../src/maps/map-upload';
import { sendRefusal } from '../../host/body-size-guard';
import { DomainError } from '../../src/domain/domain-error';
import { HttpError } from '../http-error';
import { NativeResponse, nativeFramingRefusal, presentedOfNative, readNativeRequest } from '../../host/native-door';
import { toMapEntry } from './maps-routes';

export interface MapUploadRouteDeps extends ExchangeDeps {
  library: MapLibrary;
  authenticate: Authenticate<Caller>;
  addressOf: (peer: string, forwardedFor: string | undefined) => string;
}

/** The multipart envelope around the file (boundaries, part headers, display_name) may add this much. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * POST /api/maps/upload on a native uWS route: framing (with the upload's own size limit), then
 * the one exchange (in-flight, credentials, error mapping, observers) whose handler streams the
 * body from `res.onData` through busboy into the upload's temporary file with backpressure
 * (`res.pause()`/`res.resume()`), never held whole. Nothing is parsed until the caller is known to
 * be allowed to upload. A refusal mid-body answers once the upload is cleaned up (no file, a
 * `rejected` row), and the rest of the declared body is read and discarded so the client, still
 * sending, reads the answer (host/native-door.ts).
 */
export function installMapUploadRoute(app: UwsApp, deps: MapUploadRouteDeps): void {
  const route = mapsRoutes.upload;
  const bodyLimit = deps.library.maxBytes + ENVELOPE_BYTES;
  const tooLarge = () => new HttpError(413, `map files are limited to ${deps.library.maxBytes} bytes`);
  deps.bindings?.bound(route, 'native');

  app.post(route.path, (res, req) => {
    const request = readNativeRequest(req, res, 'POST');
    const refusal = nativeFramingRefusal(request, { limit: bodyLimit, chunked: true });
    if (refusal) {
      // The route's own words for a declared size over its limit.
      if (refusal.status.startsWith('413')) refusal.error = tooLarge().message;
      return sendRefusal(res, req, refusal, deps, route.path);
    }
    const door = new NativeResponse(res, request);
    const body = new StreamedBody(res, door, bodyLimit, tooLarge, () => deps.inFlight.draining);
    void runExchange(
      deps,
      route,
      deps.authenticate,
      { door: 'http', presented: presentedOfNative(request, deps.addressOf), input: () => ({ params: {}, query: {}, body: {} }) },
      ({ caller }) => receiveUpload(deps.library, userOf(caller), request.headers, body),
      door,
    );
  });
}

/**
 * The request body as it arrives: held (paused) until a consumer is attached, counted against the
 * limit, and failed by a disconnect or the upload deadline.
 */
class StreamedBody {
  #early: Array<[Buffer, boolean]> = [];
  #deliver: ((chunk: Buffer, isLast: boolean) => void) | undefined;
  #failure: ((error: Error) => void) | undefined;
  #failed: Error | undefined;
  readonly #deadline: NodeJS.Timeout;

  constructor(
    res: HttpResponse,
    readonly door: NativeResponse,
    limit: number,
    tooLarge: () => Error,
    shuttingDown: () => boolean,
  ) {
    res.onData((arrayBuffer, isLast) => {
      // uWS reuses the buffer after this callback returns: copy it.
      const chunk = Buffer.from(new Uint8Array(arrayBuffer));
      door.received += chunk.length;
      if (isLast) door.bodyComplete = true;
      if (this.#failed || door.done) return;
      if (door.received > limit) return this.fail(tooLarge());
      if (this.#deliver) this.#deliver(chunk, isLast);
      else this.#early.push([chunk, isLast]);
    });
    res.onAborted(() => {
      door.aborted = true;
      // Closed after an answer the exchange already sent (a shutdown's 503): not the client's doing;
      // the library's close rejects the upload it leaves running.
      // During a drain the connection may be closed by uWS's idle timeout while the client waits: the shutdown's doing.
      if (!door.done) this.fail(new HttpError(499, shuttingDown() ? 'the server shut down during the upload' : 'the client disconnected mid-upload'));
    });
    // Nothing more is read until the caller is known to be allowed to upload.
    door.pause();
    this.#deadline = setTimeout(() => this.fail(new HttpError(408, 'the upload took too long')), UPLOAD_DEADLINE_MS);
    this.#deadline.unref();
  }

  get aborted(): boolean {
    return this.door.aborted;
  }

  /** Attaches the consumer: the chunks held so far first, then the rest as it arrives. */
  consume(deliver: (chunk: Buffer, isLast: boolean) => void, onFailure: (error: Error) => void): void {
    this.#deliver = deliver;
    this.#failure = onFailure;
    if (this.#failed) return onFailure(this.#failed);
    for (const [chunk, isLast] of this.#early.splice(0)) deliver(chunk, isLast);
    if (!this.#failed) this.door.resume();
  }

  fail(error: Error): void {
    if (this.#failed) return;
    this.#failed = error;
    this.#failure?.(error);
  }

  settle(): void {
    clearTimeout(this.#deadline);
  }
}

type Headers = Record<string, string>;

/**
 * The handler: checks the uploader, parses the multipart body as it streams and stores the file.
 * Any failure (a busboy parse error on an unterminated body included) rejects once, after the
 * upload is aborted and its temporary file removed; no stream error is left without a listener.
 */
async function receiveUpload(library: MapLibrary, user: ReturnType<typeof userOf>, headers: Headers, body: StreamedBody) {
  try {
    await library.assertMayUpload(user);
    if (!(headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
      throw new HttpError(400, 'the upload must be multipart/form-data with a `file` part');
    }
    return await parseUpload(library, user, headers, body);
  } finally {
    body.settle();
  }
}

function parseUpload(library: MapLibrary, user: ReturnType<typeof userOf>, headers: Headers, body: StreamedBody) {
  let parser: busboy.Busboy;
  try {
    parser = busboy({ headers, limits: { files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 } });
  } catch {
    throw new HttpError(400, 'content-type: a multipart boundary is required');
  }
  return new Promise<ReturnType<typeof toMapEntry>>((resolve, reject) => {
    let upload: Promise<MapUpload | null> = Promise.resolve(null);
    let refused = false;
    let fileSeen = false;
    let displayName: unknown;
    const fail = (error: unknown) => {
      if (refused) return;
      refused = true;
      const reason = error instanceof Error ? error.message : 'internal error';
      upload
        .catch(() => null)
        .then((u) => u?.abort(reason))
        .catch(() => undefined)
        .finally(() => reject(error));
    };
    parser.on('file', (field, stream, info) => {
      // busboy fails the file stream first on a cut-off body: a client's error (400), never an unhandled one.
      // The pipeline below also destroys this stream with the store's own refusal (a file over the
      // limit: 413), which can arrive here before the pipeline rejects: that one is kept as it is.
      stream.on('error', (error) => fail(error instanceof DomainError || error instanceof HttpError ? error : new HttpError(400, 'malformed multipart body')));
      if (refused) return void stream.resume();
      if (field !== 'file' || fileSeen) {
        stream.resume();
        return fail(new HttpError(400, field === 'file' ? 'file: exactly one `file` part is allowed' : 'unexpected file part; send the map as `file`'));
      }
      fileSeen = true;
      upload = library.begin(user.id, info.filename);
      upload.then(
        (u) => (refused ? Promise.resolve() : pipeline(stream, u!.sink)).catch(fail),
        (error) => {
          stream.resume();
          fail(error);
        },
      );
    });
    parser.on('field', (field, value, info) => {
      if (info.valueTruncated) return fail(new HttpError(400, 'display_name: too long'));
      if (field === 'display_name') displayName = value;
    });
    for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
      parser.on(limit, () => fail(new HttpError(400, `too many parts in the upload (${limit})`)));
    }
    // An unterminated or malformed body: answered 400, never an unhandled 'error' event.
    parser.on('error', () => fail(new HttpError(400, 'malformed multipart body')));
    parser.on('close', () => {
      (async () => {
        if (refused) return;
        if (!fileSeen) throw new HttpError(400, 'file: a `file` part with the .bsp is required');
        const fields = v.safeParse(MapUploadFields, displayName === undefined ? {} : { display_name: displayName });
        if (!fields.success) throw new HttpError(400, describeIssues(fields.issues, 'body'));
        const running = (await upload)!;
        // busboy closes once the body is parsed; the file may still be draining to disk.
        if (!running.sink.writableFinished) await new Promise<void>((done, failed) => {
          running.sink.once('finish', done);
          running.sink.once('error', failed);
        });
        resolve(toMapEntry(await running.finish(fields.output.display_name)));
      })().catch(fail);
    });
    body.consume((chunk, isLast) => {
      if (refused) return;
      if (!parser.write(chunk)) {
        body.door.pause();
        parser.once('drain', () => !refused && !body.aborted && body.door.resume());
      }
      if (isLast) parser.end();
    }, fail);
  });
}
