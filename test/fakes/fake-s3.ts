import { createHash, createHmac } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocally, type LocalServer } from './local-http-server';

/**
 * An S3-compatible object store on 127.0.0.1 speaking S3's REST wire format with path-style
 * addressing (`/<bucket>/<key>`): PUT, GET, HEAD and DELETE Object, with S3's XML error bodies.
 * Every request must carry a valid AWS Signature Version 4 `Authorization` header for the
 * configured access key: the signature is recomputed from the canonical request (signed headers,
 * `x-amz-content-sha256`, and the payload hash when the client signed it), so a wrong secret or
 * a tampered request is refused with 403 SignatureDoesNotMatch, as S3 does.
 */
export interface FakeS3 extends LocalServer {
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  /** Keys currently stored, and the bytes under one. */
  keys(): string[];
  object(key: string): Buffer | undefined;
  /** Every request line seen, e.g. `PUT /maps/1-x.bsp`. */
  requests: string[];
}

const xmlError = (response: ServerResponse, status: number, code: string, message: string) => {
  response.writeHead(status, { 'content-type': 'application/xml' });
  response.end(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`);
};

const sha256Hex = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string) => createHmac('sha256', key).update(data).digest();

/** RFC 3986 encoding as SigV4 wants it (S3: the path is encoded once, slashes kept). */
const uriEncode = (text: string, keepSlash: boolean) =>
  [...Buffer.from(text, 'utf8')]
    .map((byte) => {
      const c = String.fromCharCode(byte);
      if (/[A-Za-z0-9\-._~]/.test(c) || (keepSlash && c === '/')) return c;
      return `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');

function checkSignature(request: IncomingMessage, url: URL, body: Buffer, fake: FakeS3): string | null {
  const authorization = request.headers.authorization ?? '';
  const match = /^AWS4-HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/s3\/aws4_request, ?SignedHeaders=([^,]+), ?Signature=([0-9a-f]{64})$/.exec(authorization);
  if (!match) return 'missing or malformed AWS4-HMAC-SHA256 Authorization header';
  const [, accessKeyId, day, region, signedHeaders, signature] = match;
  if (accessKeyId !== fake.accessKeyId) return 'unknown access key';
  const amzDate = String(request.headers['x-amz-date'] ?? '');
  const payloadHash = String(request.headers['x-amz-content-sha256'] ?? '');
  if (!amzDate.startsWith(day)) return 'x-amz-date does not match the credential scope';
  if (!payloadHash) return 'missing x-amz-content-sha256';
  if (payloadHash !== 'UNSIGNED-PAYLOAD' && payloadHash !== sha256Hex(body)) return 'payload hash mismatch';
  const headerNames = signedHeaders.split(';');
  if (!headerNames.includes('host')) return 'host is not signed';
  const canonicalHeaders = headerNames
    .map((name) => `${name}:${String(request.headers[name] ?? '').trim().replace(/\s+/g, ' ')}\n`)
    .join('');
  const query = [...url.searchParams.entries()]
    .map(([k, v]) => [uriEncode(k, false), uriEncode(v, false)])
    .sort(([a, x], [b, y]) => (a === b ? (x < y ? -1 : 1) : a < b ? -1 : 1))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = [request.method, uriEncode(decodeURIComponent(url.pathname), true), query, canonicalHeaders, signedHeaders, payloadHash].join('\n');
  const scope = `${day}/${region}/s3/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${fake.secretAccessKey}`, day), region), 's3'), 'aws4_request');
  return createHmac('sha256', signingKey).update(toSign).digest('hex') === signature ? null : 'signature does not match';
}

export async function startFakeS3(options: { bucket?: string; accessKeyId?: string; secretAccessKey?: string } = {}): Promise<FakeS3> {
  const objects = new Map<string, Buffer>();
  const fake = {
    bucket: options.bucket ?? 'league-maps',
    accessKeyId: options.accessKeyId ?? 'AKIAFAKES3TEST000001',
    secretAccessKey: options.secretAccessKey ?? 'fake-s3-secret-access-key-for-tests-only',
    keys: () => [...objects.keys()].sort(),
    object: (key: string) => objects.get(key),
    requests: [] as string[],
  };
  const server = await listenLocally(async (request, response, url) => {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    fake.requests.push(`${request.method} ${url.pathname}`);
    const refused = checkSignature(request, url, body, full);
    if (refused) return xmlError(response, 403, 'SignatureDoesNotMatch', refused);
    const [, bucket, ...rest] = decodeURIComponent(url.pathname).split('/');
    const key = rest.join('/');
    if (bucket !== fake.bucket) return xmlError(response, 404, 'NoSuchBucket', 'The specified bucket does not exist');
    if (!key) return xmlError(response, 400, 'InvalidRequest', 'object key required');
    const stored = objects.get(key);
    const etag = stored ? `"${createHash('md5').update(stored).digest('hex')}"` : '';
    switch (request.method) {
      case 'PUT': {
        const declared = request.headers['content-length'];
        if (declared === undefined) return xmlError(response, 411, 'MissingContentLength', 'You must provide the Content-Length HTTP header.');
        if (Number(declared) !== body.length) return xmlError(response, 400, 'IncompleteBody', 'The request body terminated unexpectedly');
        objects.set(key, body);
        response.writeHead(200, { etag: `"${createHash('md5').update(body).digest('hex')}"` });
        return void response.end();
      }
      case 'GET':
        if (!stored) return xmlError(response, 404, 'NoSuchKey', 'The specified key does not exist.');
        response.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': stored.length, etag });
        return void response.end(stored);
      case 'HEAD':
        // HEAD answers carry no body, so S3 gives only the status.
        response.writeHead(stored ? 200 : 404, stored ? { 'content-length': stored.length, etag } : {});
        return void response.end();
      case 'DELETE':
        objects.delete(key);
        response.writeHead(204);
        return void response.end();
      default:
        return xmlError(response, 405, 'MethodNotAllowed', 'The specified method is not allowed against this resource.');
    }
  });
  const full: FakeS3 = { ...fake, ...server };
  return full;
}
