import os from 'node:os';
import path from 'node:path';

/**
 * The Teamkit home folder: `explicit`, else `$TEAMKIT_HOME`, else `~/.teamkit`.
 */
export function resolveTeamkitHome(
  explicit?: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const chosen = explicit ?? env.TEAMKIT_HOME;
  if (chosen !== undefined && chosen !== '') return path.resolve(expandHome(chosen));
  return path.join(os.homedir(), '.teamkit');
}

/** Expands a leading `~` or `~/` to the user's home folder. */
export function expandHome(value: string): string {
  if (value === '~') return os.homedir();
  if (value.startsWith('~/') || value.startsWith('~\\'))
    return path.join(os.homedir(), value.slice(2));
  return value;
}
