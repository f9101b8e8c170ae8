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
