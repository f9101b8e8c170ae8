import * as v from 'valibot';

export const ErrorBody = v.object({ error: v.string() });
export type ErrorBody = v.InferOutput<typeof ErrorBody>;

export const OkBody = v.object({ ok: v.boolean() });

export const IsoDateTime = v.pipe(v.string(), v.isoTimestamp());

/** Integer path parameters arrive as strings; anything but digits is a 404 candidate, not a crash. */
export const IntegerParam = v.pipe(
  v.string(),
  v.regex(/^\d{1,15}$/, 'must be a positive integer'),
  v.transform(Number),
);

/**
 * A query-string integer clamped into [min, max]; absent means the default. Non-numbers are a 400
 * that names the field; out-of-range numbers are clamped, as the specification's "max" reads.
 */
export function clampedQueryInt(defaultValue: number, min: number, max: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?\d{1,9}$/, 'must be an integer'),
      v.transform((s) => Math.min(max, Math.max(min, Number(s)))),
    ),
    String(defaultValue),
  );
}

/**
 * A query-string integer in [min, max]; absent means the default. Unlike `clampedQueryInt`, a
 * number out of range is a 400 naming the rule: the tag areas' paged lists (CONTRACT.md) say so.
 */
export function boundedQueryInt(defaultValue: number, min: number, max: number) {
  return v.optional(
    v.pipe(
      v.string(),
      v.regex(/^-?\d{1,9}$/, 'must be an integer'),
      v.transform(Number),
      v.minValue(min, `must be at least ${min}`),
      v.maxValue(max, `must be at most ${max}`),
    ),
    String(defaultValue),
  );
}

/** `page` (1-based, default 1) and `limit` (default 20, at most 100) of a tag area's paged list. */
export const PageQuery = { page: boundedQueryInt(1, 1, 1_000_000), limit: boundedQueryInt(20, 1, 100) };
