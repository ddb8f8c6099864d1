/** A time span as `<1m`, `3m`, `2h`, `4d` (the board's clock moves once a minute). */
export function age(ms: number): string {
  const seconds = Math.max(0, Math.floor(ms / 1000));
  if (seconds < 60) return '<1m';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours}h`;
  return `${Math.floor(hours / 24)}d`;
}

/** A timestamp as local date and time. */
export function when(at: number): string {
  return new Date(at).toLocaleString();
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A run id as shown: the first eight characters of a UUID; other ids (Claude Code's team names) whole. */
export function shortId(id: string): string {
  return UUID.test(id) ? id.slice(0, 8) : id;
}

/** Message kinds that are protocol traffic rather than conversation; folded by default. */
export const PROTOCOL_KINDS: readonly string[] = [
  'idle_notification',
  'shutdown_request',
  'shutdown_approved',
  'shutdown_rejected',
  'permission_request',
  'permission_response',
];
