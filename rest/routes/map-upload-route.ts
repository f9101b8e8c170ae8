import { EventEmitter } from 'node:events';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import * as v from 'valibot';
import { MapUploadFields } from '../../schema/maps';
import { mapsRoutes } from '../../schema/routes/maps-routes';
import type { Authenticator, CredentialResponse } from '../../src/identity/authenticator';
import { userOf } from '../../src/identity/caller';
import { UPLOAD_DEADLINE_MS, type MapLibrary } from '../../src/maps/map-library';
import type { MapUpload } from '../../src/maps/map-upload';
import type { UwsApp } from '../../realtime/uws-host';
import { toHttpError } from '../error-mapping';
import { HttpError } from '../http-error';
import { statusLine } from '../status-line';
import { toMapEntry } from './maps-routes';

export interface MapUploadRouteDeps {
  library: MapLibrary;
  authenticate: Authenticator['authenticate'];
  onError: (error: unknown) => void;
}

/** The multipart envelope around the file (boundaries, part headers, display_name) may add this much. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * POST /api/maps/upload on a native uWS route: the body streams from `res.onData` through busboy
 * into the upload's temporary file with backpressure (`res.pause()`/`res.resume()`), never held
 * whole. express would buffer the whole body first, and the 1 MB guard refuses it. The credential
 * check is the REST routes' own (`authenticate`, so key rate limits and key audit apply), fed a
 * request and response shaped like express's. A refusal mid-body answers at once and closes the
 * connection; the upload it ends leaves no file and a `rejected` row.
 */
export function installMapUploadRoute(app: UwsApp, deps: MapUploadRouteDeps): void {
  const route = mapsRoutes.upload;
  const bodyLimit = deps.library.maxBytes + ENVELOPE_BYTES;

  app.post(route.path, (res, req) => {
    const headers: Record<string, string> = {};
    req.forEach((name, value) => (headers[name] = value));
    const query = req.getQuery();
    const path = req.getUrl();
    const ip = Buffer.from(res.getRemoteAddressAsText()).toString();

    let aborted = false;
    let responded = false;
    let received = 0;
    let bodyDone = false;
    let deliver: ((chunk: Buffer, isLast: boolean) => void) | undefined;
    const early: Array<[Buffer, boolean]> = [];
    let upload: Promise<MapUpload | null> = Promise.resolve(null);
    let deadline: NodeJS.Timeout | undefined;

    // What the authenticator expects of a response: a status, headers, and 'finish' (key audit).
    const extraHeaders: Array<[string, string]> = [];
    const credentialRes = Object.assign(new EventEmitter(), {
      statusCode: 200,
      setHeader: (name: string, value: string) => extraHeaders.push([name, value]),
    }) as EventEmitter & CredentialResponse;

    const respond = (status: number, body: unknown, more: Record<string, string> = {}) => {
      if (responded) return;
      responded = true;
      clearTimeout(deadline);
      credentialRes.statusCode = aborted ? 499 : status;
      credentialRes.emit('finish');
      if (aborted) return;
      // Unread body left: close rather than read (and store) the rest of it.
      const close = !bodyDone;
      res.cork(() => {
        // A paused response is resumed, or its answer could sit behind the paused socket.
        res.resume();
        res.writeStatus(statusLine(status)).writeHeader('content-type', 'application/json; charset=utf-8');
        for (const [name, value] of [...extraHeaders, ...Object.entries(more)]) res.writeHeader(name, value);
        res.end(JSON.stringify(body), close);
      });
    };

    // Once refused, no further byte is parsed; the answer waits until the upload is cleaned up,
    // so a client that reads it finds no file and a settled (rejected) row.
    let refused = false;
    const fail = (error: unknown) => {
      if (refused || responded) return;
      refused = true;
      const http = toHttpError(error);
      if (!http) deps.onError(error);
      const status = http?.status ?? 500;
      const message = http?.message ?? 'internal error';
      upload
        .catch(() => null)
        .then((u) => u?.abort(aborted ? 'the client disconnected mid-upload' : message))
        .catch(deps.onError)
        .finally(() => respond(status, { error: message }, http?.headers));
    };

    res.onAborted(() => {
      aborted = true;
      fail(new HttpError(499, 'the client disconnected mid-upload'));
    });

    const declared = headers['content-length'];
    if (declared !== undefined && Number(declared) > bodyLimit) {
      respond(413, { error: `map files are limited to ${deps.library.maxBytes} bytes` });
      return;
    }

    res.onData((arrayBuffer, isLast) => {
      // uWS reuses the buffer after this callback returns: copy it.
      const chunk = Buffer.from(new Uint8Array(arrayBuffer));
      received += chunk.length;
      if (isLast) bodyDone = true;
      if (refused || responded) return;
      if (received > bodyLimit) return fail(new HttpError(413, `map files are limited to ${deps.library.maxBytes} bytes`));
      if (deliver) deliver(chunk, isLast);
      else early.push([chunk, isLast]);
    });
    // Nothing more is read until the caller is known to be allowed to upload.
    res.pause();
    deadline = setTimeout(() => fail(new HttpError(408, 'the upload took too long')), UPLOAD_DEADLINE_MS);

    const credentialReq = { headers, method: 'POST', url: query ? `${path}?${query}` : path, path, ip };
    (async () => {
      const caller = await deps.authenticate(credentialReq, credentialRes, route);
      const user = userOf(caller);
      await deps.library.assertMayUpload(user);
      if (!(headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw new HttpError(400, 'the upload must be multipart/form-data with a `file` part');
      }
      let parser: busboy.Busboy;
      try {
        parser = busboy({ headers, limits: { files: 1, fields: 4, parts: 5, fieldSize: 1024, headerPairs: 20 } });
      } catch (error) {
        throw new HttpError(400, `malformed multipart content-type: ${(error as Error).message}`);
      }
      let fileSeen = false;
      let displayName: unknown;
      parser.on('file', (field, stream, info) => {
        if (refused) return void stream.resume();
        if (field !== 'file' || fileSeen) {
          stream.resume();
          return fail(new HttpError(400, field === 'file' ? 'exactly one `file` part is allowed' : `unexpected file part "${field}"; send the map as \`file\``));
        }
        fileSeen = true;
        upload = deps.library.begin(user.id, info.filename);
        upload.then(
          (u) => (refused ? Promise.resolve() : pipeline(stream, u!.sink)).catch(fail),
          (error) => {
            stream.resume();
            fail(error);
          },
        );
      });
      parser.on('field', (field, value, info) => {
        if (info.valueTruncated) return fail(new HttpError(400, `${field}: too long`));
        if (field === 'display_name') displayName = value;
      });
      for (const limit of ['partsLimit', 'filesLimit', 'fieldsLimit'] as const) {
        parser.on(limit, () => fail(new HttpError(400, `too many parts in the upload (${limit})`)));
      }
      parser.on('error', (error: Error) => fail(new HttpError(400, `malformed multipart body: ${error.message}`)));
      parser.on('close', () => {
        (async () => {
          if (refused) return;
          if (!fileSeen) throw new HttpError(400, 'file: a `file` part with the .bsp is required');
          const fields = v.safeParse(MapUploadFields, displayName === undefined ? {} : { display_name: displayName });
          if (!fields.success) throw new HttpError(400, `${v.getDotPath(fields.issues[0]) ?? 'display_name'}: ${fields.issues[0].message}`);
          const running = (await upload)!;
          // busboy closes once the body is parsed; the file may still be draining to disk.
          if (!running.sink.writableFinished) await new Promise<void>((resolve, reject) => {
            running.sink.once('finish', resolve);
            running.sink.once('error', reject);
          });
          const map = await running.finish(fields.output.display_name);
          respond(201, toMapEntry(map));
        })().catch(fail);
      });

      deliver = (chunk, isLast) => {
        if (!parser.write(chunk)) {
          res.pause();
          parser.once('drain', () => !refused && res.resume());
        }
        if (isLast) parser.end();
      };
      for (const [chunk, isLast] of early.splice(0)) deliver(chunk, isLast);
      if (!refused) res.resume();
    })().catch(fail);
  });
}
