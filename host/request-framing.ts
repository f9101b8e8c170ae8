/**
 * The framing rules of a request head, decided before a byte of its body is buffered. uWS's parser
 * takes the first of several Content-Length headers; a proxy in front may take the last, which is
 * how requests are smuggled, so two different lengths are refused. (uWS itself drops a connection
 * that sends both Content-Length and Transfer-Encoding, or a length that is not a number:
 * docs/http-framing.md.) A chunked body has no length to check against the limit before it is
 * buffered: 411, send Content-Length. A target over 8 KB is 414, as nginx's default answers.
 */

export const MAX_JSON_BODY_BYTES = 1024 * 1024;

/** Longest request target (path and query) accepted; a longer one is answered 414. */
const MAX_TARGET_LENGTH = 8 * 1024;

export interface Refusal {
  status: string;
  error: string;
  /** The request's framing is ambiguous: answer on the next turn (see `sendRefusal`). */
  ambiguous?: boolean;
  /** The body the client declared and is still sending (0 without one; Infinity when chunked). */
  unreadBytes: number;
}

/**
 * What framing reads of a head: its Content-Length headers as one value (repeats joined with
 * ', ', as Node joins them) and its Transfer-Encoding, each undefined when absent.
 */
export interface RequestFraming {
  contentLength: string | undefined;
  transferEncoding: string | undefined;
  /** The length of the target: the path, and a `?` and the query string when it has one. */
  targetLength: number;
}

export interface FramingRules {
  /** Declared lengths over this are 413. Default MAX_JSON_BODY_BYTES. */
  limit?: number;
  /** A streamed route (the map upload) counts a chunked body against its limit as it arrives. */
  chunked?: boolean;
}

/** The first Content-Length given: the one uWS's parser believes. */
const firstLength = (contentLength: string): string => {
  const comma = contentLength.indexOf(',');
  return comma < 0 ? contentLength : contentLength.slice(0, comma).trim();
};

/** The declared body length: 0 without a body, Infinity for a chunked one. */
export function declaredLengthOf(contentLength: string | undefined, transferEncoding: string | undefined): number {
  if (contentLength !== undefined) return Number(firstLength(contentLength));
  return transferEncoding !== undefined ? Number.POSITIVE_INFINITY : 0;
}

/** What is wrong with a request's framing, or null. */
export function framingRefusalOf(framing: RequestFraming, rules: FramingRules = {}): Refusal | null {
  const { contentLength, transferEncoding, targetLength } = framing;
  const declared = declaredLengthOf(contentLength, transferEncoding);
  if (targetLength > MAX_TARGET_LENGTH) {
    return { status: '414 URI Too Long', error: `request target over ${MAX_TARGET_LENGTH} characters`, unreadBytes: declared };
  }
  if (contentLength === undefined) {
    if (transferEncoding === undefined || rules.chunked) return null;
    return { status: '411 Length Required', error: 'chunked request bodies are not accepted; send Content-Length', unreadBytes: Number.POSITIVE_INFINITY };
  }
  if (contentLength.includes(',')) {
    const [first, ...others] = contentLength.split(',').map((value) => value.trim());
    if (others.some((value) => value !== first)) {
      return { status: '400 Bad Request', error: 'different Content-Length headers sent', ambiguous: true, unreadBytes: Number.POSITIVE_INFINITY };
    }
  }
  const limit = rules.limit ?? MAX_JSON_BODY_BYTES;
  if (declared > limit) return { status: '413 Payload Too Large', error: `request body over ${limit} bytes`, unreadBytes: declared };
  return null;
}
