import type { TeamkitErrorCode } from '../errors/index.js';

/**
 * What a registry warning is about: a config source, a team (loaded with a note),
 * a skipped team, a shadowed team, or a setting.
 */
export type RegistryWarningTopic = 'source' | 'team' | 'skipped' | 'shadow' | 'setting';

/** A problem the registry reported instead of throwing; the load carried on. */
export interface RegistryWarning {
  topic: RegistryWarningTopic;
  /** The code the same problem would carry as a thrown TeamkitError. */
  code: TeamkitErrorCode;
  message: string;
  /** The file at fault, when there is one. */
  file?: string;
}
