import fc from 'fast-check';

/** Percent-escapes that do not decode (the 500s) and path tricks. */
export const RAW_PATH_TRICKS = ['%', '%zz', '%ff', '%C0%AE', '%00', '%2e%2e', '..', '%2F', '%E2%82', '%uD800', '~', ';x=1', '%20'];

/** Strings a careless parser chokes on. */
const nastyStrings = fc.oneof(
  fc.constantFrom('', ' ', '0', '-1', '1e309', 'NaN', 'null', 'true', '[]', '{}', '__proto__', 'constructor', '\u0000', '\uFFFF', '\uD800', '😀', '<script>', "'; drop table users; --", '../../etc/passwd', '%s%n', '9'.repeat(40)),
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.integer({ min: 1_000, max: 120_000 }).map((n) => 'x'.repeat(n)),
);

/** Any JSON value, leaning towards the edges: huge, negative, fractional, deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  nastyStrings,
  fc.constantFrom(0, -1, 1.5, -0, 2 ** 31, 2 ** 53 + 2, -(2 ** 63), 1e308, Number.MIN_VALUE, true, false, null),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.jsonValue({ maxDepth: 3 }),
  fc.integer({ min: 50, max: 2_000 }).map((depth) => JSON.parse('['.repeat(depth) + ']'.repeat(depth)) as unknown),
  fc.array(fc.constant('x'), { minLength: 1_000, maxLength: 5_000 }),
);

const UNRESERVED = /[A-Za-z0-9\-._~]/;

/** Percent-encodes any string, lone surrogates included (encodeURIComponent throws on those). */
export function encodeLoose(text: string): string {
  let out = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    out += UNRESERVED.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

/** A path parameter: real values the server knows, garbage, and raw escapes that do not decode. */
export function pathValue(known: string[]): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...known),
    fc.constantFrom(...RAW_PATH_TRICKS),
    nastyStrings.map((s) => encodeLoose(s.slice(0, 3_000))),
    fc.integer().map(String),
    fc.constantFrom('0', '-1', '1.5', '99999999999999999999999', '1e3', '0x10'),
  );
}

/** A query value, encoded, sometimes repeated (`?a=1&a=2` arrives as an array). */
export const queryValue = fc.oneof(
  nastyStrings.map((s) => encodeLoose(s.slice(0, 3_000))),
  fc.constantFrom(...RAW_PATH_TRICKS),
  fc.integer().map(String),
);
