import path from 'node:path';
import { isTeamkitError } from '../errors/index.js';
import { createFileAtomically, resolveTeamkitHome } from '../storage/index.js';
import { CONFIG_FILE_NAME, readConfigTemplate } from './config-source-file.js';

/** Where to create the global config. */
export interface EnsureGlobalConfigOptions {
  /** The Teamkit home; defaults to `env.TEAMKIT_HOME`, then `~/.teamkit`. */
  home?: string;
  /** Environment for `TEAMKIT_HOME`; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/**
 * Creates `<home>/config.json` from the packaged template if it is missing: atomically,
 * and never over an existing file (a file that appears concurrently is left alone).
 * A project config is never created automatically.
 */
export async function ensureGlobalConfig(
  options: EnsureGlobalConfigOptions = {},
): Promise<{ path: string; created: boolean }> {
  const home = resolveTeamkitHome(options.home, (options.env ?? process.env) as NodeJS.ProcessEnv);
  const file = path.join(home, CONFIG_FILE_NAME);
  try {
    await createFileAtomically(file, await readConfigTemplate());
    return { path: file, created: true };
  } catch (error) {
    if (isTeamkitError(error, 'ALREADY_EXISTS')) return { path: file, created: false };
    throw error;
  }
}
