import type { ClaudeControlMessage, ClaudeInboxEntry } from './claude-team-view.js';
import { definedFields, isPlainObject, optionalString } from './plain-object.js';

/** True when Claude Code would accept `entry`: an object with string `from`, `text` and `timestamp`. */
export function isValidInboxEntry(entry: unknown): entry is Record<string, unknown> {
  if (!isPlainObject(entry)) return false;
  const { from, text, timestamp } = entry;
  return typeof from === 'string' && typeof text === 'string' && typeof timestamp === 'string';
}

function controlOf(text: string): ClaudeControlMessage | undefined {
  if (!text.startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(text);
    return isPlainObject(parsed) && typeof parsed.type === 'string'
      ? (parsed as ClaudeControlMessage)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Reads a parsed inbox file: the entries not yet delivered (`read` not `true`), and how
 * many entries Claude Code would drop as malformed. Fails only when it is not an array.
 */
export function parseInbox(
  value: unknown,
): { ok: true; pending: ClaudeInboxEntry[]; malformed: number } | { ok: false; reason: string } {
  if (!Array.isArray(value)) return { ok: false, reason: 'the inbox is not a JSON array' };
  const pending: ClaudeInboxEntry[] = [];
  let malformed = 0;
  for (const entry of value) {
    if (!isValidInboxEntry(entry)) {
      malformed += 1;
      continue;
    }
    if (entry.read === true) continue;
    const text = entry.text as string;
    pending.push({
      from: entry.from as string,
      text,
      timestamp: entry.timestamp as string,
      ...definedFields({
        summary: optionalString(entry.summary),
        color: optionalString(entry.color),
        msgId: optionalString(entry.msg_id),
        control: controlOf(text),
      }),
    });
  }
  return { ok: true, pending, malformed };
}
