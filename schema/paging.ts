import * as v from 'valibot';

/**
 * The paged lists of the tag areas (teams, tournaments, cups, community, approvals, client logs):
 * `page` 1-based, default 1; `limit` default 20, at most 100; a value out of range is a 400 that
 * names the field and the rule (docs/design/CONTRACT.md "Tag areas"), not clamped as the older
 * lists do (`clampedQueryInt` in common.ts).
 */
function strictQueryInt(defaultValue: number, min: number, max: number) {
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

export const PAGE_LIMIT_DEFAULT = 20;
export const PAGE_LIMIT_MAX = 100;

/** Spread into a query schema: `v.object({ q: ..., ...PageQuery })`. */
export const PageQuery = {
  page: strictQueryInt(1, 1, 1_000_000),
  limit: strictQueryInt(PAGE_LIMIT_DEFAULT, 1, PAGE_LIMIT_MAX),
};

/** `{<plural>: T[], total, page, limit}`. */
export function pageOf<K extends string, T extends v.GenericSchema>(plural: K, item: T) {
  return v.object({ [plural]: v.array(item), total: v.number(), page: v.number(), limit: v.number() } as { [P in K]: v.ArraySchema<T, undefined> } & {
    total: v.NumberSchema<undefined>;
    page: v.NumberSchema<undefined>;
    limit: v.NumberSchema<undefined>;
  });
}
