/**
 * JSON values compared by shape, data aside: the keys, the kind of each value and the nesting.
 * The contract tests hold the sandbox's answers (and our hand-typed records) against answers
 * captured from the live service with these.
 */

/** A JSON value's shape: its keys (sorted) and the kinds of their values, recursively; arrays by their first item. */
export function shapeOf(value: unknown): unknown {
  if (Array.isArray(value)) return [value.length === 0 ? 'empty' : shapeOf(value[0])];
  if (value === null) return 'null';
  if (typeof value !== 'object') return typeof value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, shapeOf((value as Record<string, unknown>)[key])]),
  );
}

const kindOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

/**
 * What `ours` lacks of `real`, one line per path (`$.author.history.joined: missing`,
 * `$.stats.views: number in the capture, string here`): every key the real value has must be
 * there, with a value of the same kind, nested the same way. Arrays are compared item by item
 * against the first item of ours (every real item must fit it). A `null` in the capture says the
 * field may be empty, so any value fits it; a `null` in ours where the capture has a value is a
 * gap. Keys only ours has are not gaps (see {@link extraKeys}).
 */
export function shapeGaps(real: unknown, ours: unknown, path = '$'): string[] {
  if (real === null) return [];
  if (ours === null) return [`${path}: ${kindOf(real)} in the capture, null here`];
  if (kindOf(real) !== kindOf(ours)) return [`${path}: ${kindOf(real)} in the capture, ${kindOf(ours)} here`];
  if (Array.isArray(real)) {
    const list = ours as unknown[];
    if (real.length === 0) return [];
    if (list.length === 0) return [`${path}: items in the capture, none here`];
    return [...new Set(real.flatMap((item) => shapeGaps(item, list[0], `${path}[]`)))];
  }
  if (typeof real !== 'object') return [];
  const mine = ours as Record<string, unknown>;
  return Object.entries(real as Record<string, unknown>).flatMap(([key, value]) =>
    key in mine ? shapeGaps(value, mine[key], `${path}.${key}`) : [`${path}.${key}: missing`],
  );
}

/** The paths of keys `ours` has and `real` has not (`$.profile.membership_label`), recursively. */
export function extraKeys(real: unknown, ours: unknown, path = '$'): string[] {
  if (Array.isArray(real) && Array.isArray(ours)) {
    return real.length === 0 || ours.length === 0 ? [] : extraKeys(real[0], ours[0], `${path}[]`);
  }
  if (kindOf(real) !== 'object' || kindOf(ours) !== 'object') return [];
  const theirs = real as Record<string, unknown>;
  return Object.entries(ours as Record<string, unknown>).flatMap(([key, value]) =>
    key in theirs ? extraKeys(theirs[key], value, `${path}.${key}`) : [`${path}.${key}`],
  );
}
