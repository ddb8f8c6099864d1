import path from 'node:path';
import { resolveTeamkitHome } from '../storage/index.js';
import {
  CONFIG_FILE_NAME,
  type LoadedConfigSource,
  readConfigSource,
} from './config-source-file.js';
import type { RegistryWarning } from './registry-warning.js';
import { type ResolvedSettings, resolveSettings } from './settings.js';

/** Where to read config sources from. Every input is injectable. */
export interface ConfigSourcesOptions {
  /** The Teamkit home; defaults to `env.TEAMKIT_HOME`, then `~/.teamkit`. */
  home?: string;
  /** The project folder; its `.teamkit/config.json` is the project source. */
  project?: string;
  /** Environment for `TEAMKIT_HOME` and `HOME`; defaults to `process.env`. */
  env?: Readonly<Record<string, string | undefined>>;
}

/** The config sources of a home and project, project first, as read. */
export interface ConfigSources {
  home: string;
  project?: string;
  sources: LoadedConfigSource[];
}

/** The project's config file: `<project>/.teamkit/config.json`. */
export function projectConfigPath(project: string): string {
  return path.join(path.resolve(project), '.teamkit', CONFIG_FILE_NAME);
}

/**
 * Reads the project source (when a project is given), then the global one. A missing
 * global file reads as the packaged template; nothing is written.
 */
export async function readConfigSources(
  options: ConfigSourcesOptions = {},
): Promise<ConfigSources> {
  const env = options.env ?? process.env;
  const home = resolveTeamkitHome(options.home, env as NodeJS.ProcessEnv);
  const project = options.project === undefined ? undefined : path.resolve(options.project);
  const sources: LoadedConfigSource[] = [];
  if (project !== undefined)
    sources.push(await readConfigSource(projectConfigPath(project), 'project'));
  sources.push(await readConfigSource(path.join(home, CONFIG_FILE_NAME), 'global'));
  return { home, ...(project === undefined ? {} : { project }), sources };
}

/** Layers the settings of the sources that were read (loaded, or the template in place of the global file). */
export function settingsOfSources(sources: readonly LoadedConfigSource[]): ResolvedSettings {
  return resolveSettings(
    sources
      .filter((source) => source.status === 'loaded' || source.status === 'template')
      .map((source) => ({ scope: source.scope, file: source.file, settings: source.settings })),
  );
}

/** The warnings of resolved settings: ignored red-line values, unknown or retired keys, invalid values. */
export function settingsWarnings(settings: ResolvedSettings): RegistryWarning[] {
  return [
    ...settings.ignoredRedLine.map(
      (ignored): RegistryWarning => ({
        topic: 'setting',
        code: 'PERMISSION_DENIED',
        file: ignored.file,
        message: ignored.message,
      }),
    ),
    ...settings.unknownKeys.map(
      (unknown): RegistryWarning => ({
        topic: 'setting',
        code: 'INVALID_CONFIG',
        file: unknown.file,
        message:
          unknown.retired === undefined
            ? `unknown setting "${unknown.key}" in ${unknown.file} was not applied.`
            : `setting "${unknown.key}" in ${unknown.file} is no longer read: ${unknown.retired}.`,
      }),
    ),
    ...settings.invalid.map(
      (bad): RegistryWarning => ({
        topic: 'setting',
        code: 'INVALID_CONFIG',
        file: bad.file,
        message: bad.message,
      }),
    ),
  ];
}

/**
 * Teamkit's settings for a home and project, without loading any team: the global config
 * (or its template) and the project config, layered. Reads only; never throws for a bad
 * file (it is reported in the result like in the team library).
 */
export async function loadSettings(options: ConfigSourcesOptions = {}): Promise<ResolvedSettings> {
  return settingsOfSources((await readConfigSources(options)).sources);
}
