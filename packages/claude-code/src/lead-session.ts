import path from 'node:path';
import { claudeFolders } from './claude-paths.js';
import { isPlainObject, optionalString } from './plain-object.js';
import { readJsonWithRetry } from './read-json-with-retry.js';

/**
 * The Claude Code version of a team's lead, from the lead's session file
 * `sessions/<pid>.json` (written while the session runs, removed when it exits), or
 * `undefined` when there is none or it belongs to another session.
 */
export async function readLeadVersion(
  configDir: string,
  lead: { pid: number; sessionId?: string },
): Promise<string | undefined> {
  const file = path.join(claudeFolders(configDir).sessions, `${lead.pid}.json`);
  const read = await readJsonWithRetry(file, { attempts: 3 });
  if (read.kind !== 'ok' || !isPlainObject(read.value)) return undefined;
  if (lead.sessionId !== undefined && read.value.sessionId !== lead.sessionId) return undefined;
  return optionalString(read.value.version);
}
