/**
 * Marks a measurement that cannot be taken yet (typically: team-core does not export the
 * API, or the bench adapter for it is not wired). Reported as "not available", never as
 * a number and never as a failure.
 */
export interface NotAvailable {
  readonly notAvailable: true;
  readonly reason: string;
}

/** Builds a {@link NotAvailable} with a reason a reader can act on. */
export function notAvailable(reason: string): NotAvailable {
  return { notAvailable: true, reason };
}

/** True when `value` is a {@link NotAvailable} marker. */
export function isNotAvailable(value: unknown): value is NotAvailable {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { notAvailable?: unknown }).notAvailable === true
  );
}
