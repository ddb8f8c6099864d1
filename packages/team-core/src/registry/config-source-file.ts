import path from 'node:path';
import type { z } from 'zod';
import { isTeamkitError, TeamkitError } from '../errors/index.js';
import { describeIssues } from '../schema/describe-issues.js';
import { TeamRegistrationEntrySchema } from '../schema/index.js';
import { DOCUMENT_VERSION } from '../storage/index.js';
import { parseJsonc } from './parse-jsonc.js';
import { assertNoPrototypeKeys } from './parse-yaml-safely.js';
import { readTextFile } from './read-text-file.js';
import type { RegistryWarning } from './registry-warning.js';
import type { RegistryScope } from './settings.js';
import { templatesFolder } from './templates-folder.js';

/** The file name of a config source inside its base folder. */
export const CONFIG_FILE_NAME = 'config.json';

/**
 * How a config source was read: `loaded`; `missing` (no file, nothing used); `template`
 * (the global file is missing, the packaged template was used in its place); `invalid`
 * (unparsable or of the wrong shape, skipped).
 */
export type ConfigSourceStatus = 'loaded' | 'missing' | 'template' | 'invalid';

/** One config source after reading: its valid team entries and settings. */
export interface LoadedConfigSource {
  scope: RegistryScope;
  file: string;
  /** The folder holding the file; `@teams/` and relative paths resolve against it. */
  base: string;
  status: ConfigSourceStatus;
  /** Valid entries, each with its position in the file's `teams` list. */
  entries: Array<{ entry: z.infer<typeof TeamRegistrationEntrySchema>; index: number }>;
  settings: Record<string, unknown>;
  warnings: RegistryWarning[];
}

const KNOWN_KEYS = new Set(['$schema', 'version', 'teams', 'settings']);

// Three issues are enough to point at the problem in a hand-written file.
const describeFileIssues = (error: z.ZodError) => describeIssues(error, 3).join('; ');

/**
 * Interprets the text of a config source. A file that is not JSON/JSONC or whose root,
 * `version`, `teams` or `settings` has the wrong shape makes the whole source invalid; a
 * single bad team entry or unknown top-level key is reported and the rest is used.
 */
export function interpretConfigSource(
  text: string,
  scope: RegistryScope,
  file: string,
): LoadedConfigSource {
  const base = path.dirname(file);
  const invalid = (message: string): LoadedConfigSource => ({
    scope,
    file,
    base,
    status: 'invalid',
    entries: [],
    settings: {},
    warnings: [
      {
        topic: 'source',
        code: 'INVALID_CONFIG',
        file,
        message: `${scope} config ${file} was skipped: ${message}`,
      },
    ],
  });
  let raw: unknown;
  try {
    raw = parseJsonc(text, file);
    assertNoPrototypeKeys(raw, file, 'INVALID_CONFIG');
  } catch (error) {
    if (isTeamkitError(error)) return invalid(error.message);
    throw error;
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    return invalid('the root must be an object.');
  }
  const record = raw as Record<string, unknown>;
  if (record.version !== undefined && record.version !== DOCUMENT_VERSION) {
    return invalid(
      `version ${JSON.stringify(record.version)} is not supported (this Teamkit reads version ${DOCUMENT_VERSION}).`,
    );
  }
  if (record.teams !== undefined && !Array.isArray(record.teams)) {
    return invalid('"teams" must be a list.');
  }
  const settings = record.settings ?? {};
  if (typeof settings !== 'object' || settings === null || Array.isArray(settings)) {
    return invalid('"settings" must be an object.');
  }
  const warnings: RegistryWarning[] = [];
  for (const key of Object.keys(record)) {
    if (!KNOWN_KEYS.has(key)) {
      warnings.push({
        topic: 'source',
        code: 'INVALID_CONFIG',
        file,
        message: `${file}: unknown top-level key "${key}" was ignored.`,
      });
    }
  }
  const entries: LoadedConfigSource['entries'] = [];
  for (const [index, item] of ((record.teams as unknown[] | undefined) ?? []).entries()) {
    const parsed = TeamRegistrationEntrySchema.safeParse(item);
    if (parsed.success) {
      entries.push({ entry: parsed.data, index });
      continue;
    }
    const both =
      typeof item === 'object' && item !== null && 'id' in item && 'path' in item
        ? 'an entry has exactly one of "id" or "path"'
        : describeFileIssues(parsed.error);
    warnings.push({
      topic: 'source',
      code: 'INVALID_CONFIG',
      file,
      message: `${file}: teams[${index}] was skipped: ${both}.`,
    });
  }
  return {
    scope,
    file,
    base,
    status: 'loaded',
    entries,
    settings: settings as Record<string, unknown>,
    warnings,
  };
}

/** The packaged global config template's text. */
export async function readConfigTemplate(): Promise<string> {
  const text = await readTextFile(path.join(templatesFolder(), CONFIG_FILE_NAME), 'IO_ERROR');
  if (text === undefined) {
    throw new TeamkitError(
      'IO_ERROR',
      `The packaged config template ${CONFIG_FILE_NAME} is missing from ${templatesFolder()}: the installation is incomplete. Reinstall @teamkit/team-core.`,
      { details: { path: path.join(templatesFolder(), CONFIG_FILE_NAME) } },
    );
  }
  return text;
}

/**
 * Reads the config source at `file`. Never throws for a bad or unreadable file: it is
 * reported and skipped. A missing global file falls back to the packaged template (in
 * memory; nothing is written), a missing project file to nothing.
 */
export async function readConfigSource(
  file: string,
  scope: RegistryScope,
): Promise<LoadedConfigSource> {
  let text: string | undefined;
  try {
    text = await readTextFile(file, 'INVALID_CONFIG');
  } catch (error) {
    if (!isTeamkitError(error)) throw error;
    return {
      ...interpretConfigSource('{}', scope, file),
      status: 'invalid',
      warnings: [
        {
          topic: 'source',
          code: 'INVALID_CONFIG',
          file,
          message: `${scope} config ${file} was skipped: ${error.message}`,
        },
      ],
    };
  }
  if (text !== undefined) return interpretConfigSource(text, scope, file);
  if (scope === 'project') {
    return { ...interpretConfigSource('{}', scope, file), status: 'missing' };
  }
  return { ...interpretConfigSource(await readConfigTemplate(), scope, file), status: 'template' };
}
