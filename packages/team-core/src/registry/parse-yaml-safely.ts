import { createRequire } from 'node:module';
import { TeamkitError } from '../errors/index.js';
import { MAX_REGISTRY_FILE_BYTES } from './read-text-file.js';

// Loaded on the first YAML file, not with the module: the parser is many modules, and most
// commands never read a team package.
let yamlLibrary: typeof import('yaml') | undefined;

/** Aliases a team document may expand; enough for hand-written reuse, too few for a bomb. */
export const MAX_YAML_ALIASES = 20;

/**
 * Parses one YAML document with the limits a hostile file needs: a byte cap checked
 * before parsing, a small alias budget (billion-laughs), duplicate keys refused, unknown
 * tags refused, one document only, and no `__proto__` keys. Throws `INVALID_TEAM`.
 */
export function parseYamlSafely(text: string, where: string): unknown {
  const size = Buffer.byteLength(text, 'utf8');
  if (size > MAX_REGISTRY_FILE_BYTES) {
    throw new TeamkitError(
      'INVALID_TEAM',
      `${where} is ${size} bytes; the limit is ${MAX_REGISTRY_FILE_BYTES} bytes.`,
      { details: { path: where, size } },
    );
  }
  yamlLibrary ??= createRequire(import.meta.url)('yaml') as typeof import('yaml');
  const document = yamlLibrary.parseDocument(text, {
    version: '1.2',
    schema: 'core',
    merge: false,
    uniqueKeys: true,
    strict: true,
    prettyErrors: false,
  });
  const problem = document.errors[0] ?? document.warnings[0];
  if (problem !== undefined) {
    // The YAML composer recurses once per level and reports running out of stack as an
    // error of the document; say what it means.
    const reason = /Maximum call stack/i.test(problem.message)
      ? 'it is nested too deeply'
      : problem.message;
    throw new TeamkitError('INVALID_TEAM', `${where} is not valid YAML: ${reason}`, {
      details: { path: where },
    });
  }
  let value: unknown;
  try {
    value = document.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new TeamkitError(
      'INVALID_TEAM',
      `${where} cannot be expanded: ${(error as Error).message} (at most ${MAX_YAML_ALIASES} aliases).`,
      { cause: error, details: { path: where } },
    );
  }
  assertNoPrototypeKeys(value, where, 'INVALID_TEAM');
  return value;
}

/** Refuses `__proto__` keys anywhere in a parsed document (they would re-parent objects). */
export function assertNoPrototypeKeys(
  value: unknown,
  where: string,
  code: 'INVALID_TEAM' | 'INVALID_CONFIG',
): void {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const current = pending.pop();
    if (typeof current !== 'object' || current === null) continue;
    if (!Array.isArray(current) && Object.hasOwn(current, '__proto__')) {
      throw new TeamkitError(code, `${where} uses the reserved key "__proto__".`, {
        details: { path: where },
      });
    }
    pending.push(...Object.values(current));
  }
}
