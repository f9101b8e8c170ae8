import { request, type ClientRequest, type IncomingMessage } from 'node:http';
import { buildBsp } from '../../support/bsp-file';

export const BOUNDARY = '----league-map-upload-test-boundary';

/** The bytes before and after the file's content in a one-file multipart body. */
export function multipartEnvelope(fileName: string): { head: Buffer; tail: Buffer } {
  return {
    head: Buffer.from(
      `--${BOUNDARY}\r\ncontent-disposition: form-data; name="file"; filename="${fileName}"\r\ncontent-type: application/octet-stream\r\n\r\n`,
    ),
    tail: Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  };
}

export interface StreamedUpload {
  req: ClientRequest;
  /** File bytes written so far. */
  written(): number;
  response: Promise<IncomingMessage & { body: string }>;
  /** Resolves when the connection is closed (by either side). */
  closed: Promise<void>;
}

/**
 * Streams a multipart upload of `fileBytes` bytes generated on the fly (a valid BSP header, then
 * filler), 1 MiB at a time with backpressure, never holding the file in memory. With
 * `chunked`, no Content-Length is sent, so the server learns the size only as bytes arrive.
 * Writing stops when the server answers, or at `stopAfter` bytes (a client that goes away).
 */
export function streamUpload(
  url: string,
  headers: Record<string, string>,
  options: { fileName: string; fileBytes: number; chunked: boolean; stopAfter?: number; revision?: number; path?: string },
): StreamedUpload {
  const { head, tail } = multipartEnvelope(options.fileName);
  const header = buildBsp({ padding: 0, revision: options.revision });
  const target = new URL(options.path ?? '/api/maps/upload', url);
  const req = request({
    host: target.hostname,
    port: target.port,
    path: target.pathname,
    method: 'POST',
    headers: {
      ...headers,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      ...(options.chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(head.length + options.fileBytes + tail.length) }),
    },
  });
  let written = 0;
  let answered = false;
  const response = new Promise<IncomingMessage & { body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve(Object.assign(res, { body })));
      res.on('error', reject);
    });
    req.on('error', (error) => {
      // Writing into a connection the server closed after answering is expected.
      if (!answered) reject(error);
    });
  });
  // A test that destroys the request on purpose need not await the answer it will never get.
  response.catch(() => undefined);
  const closed = new Promise<void>((resolve) => req.on('close', () => resolve()));
  const filler = Buffer.alloc(1024 * 1024, 0x5a);
  (async () => {
    const write = (chunk: Buffer) => new Promise<void>((resolve) => (req.write(chunk) ? resolve() : req.once('drain', resolve)));
    await write(head);
    // The lump directory must fit whatever length the file ends up with: lumps lie inside its first bytes.
    await write(header);
    written = header.length;
    const end = options.stopAfter ?? options.fileBytes;
    while (written < end && !answered && !req.destroyed) {
      const chunk = filler.subarray(0, Math.min(filler.length, end - written));
      await write(chunk);
      written += chunk.length;
    }
    if (options.stopAfter !== undefined || answered || req.destroyed) return;
    req.end(tail);
  })().catch(() => undefined);
  return { req, written: () => written, response, closed };
}
