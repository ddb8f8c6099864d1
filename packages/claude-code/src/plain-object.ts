/** True for a JSON object (not null, not an array). */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields of `record` whose names are not in `known`, or `undefined` when there are none. */
export function unknownFields(
  record: Record<string, unknown>,
  known: ReadonlySet<string>,
): Record<string, unknown> | undefined {
  const extra = Object.fromEntries(Object.entries(record).filter(([key]) => !known.has(key)));
  return Object.keys(extra).length === 0 ? undefined : extra;
}

/** `value` when it is a string, else `undefined`. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** `value` when it is a finite number, else `undefined`. */
export function optionalNumber(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** `value` when it is a boolean, else `undefined`. */
export function optionalBoolean(value: unknown): boolean | undefined {
  return typeof value === 'boolean' ? value : undefined;
}

/** Copies the entries of `fields` whose value is not `undefined`. */
export function definedFields<T extends Record<string, unknown>>(fields: T): Partial<T> {
  return Object.fromEntries(
    Object.entries(fields).filter(([, value]) => value !== undefined),
  ) as Partial<T>;
}
