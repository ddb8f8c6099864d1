export type { AgentFile } from './agent-file.js';
export { parseAgentFile } from './agent-file.js';
export type { BuiltinTeamId } from './builtin-teams.js';
export { BUILTIN_TEAM_IDS, builtinTeamFolder, isBuiltinTeamId } from './builtin-teams.js';
export type { ConfigSourceStatus, LoadedConfigSource } from './config-source-file.js';
export { CONFIG_FILE_NAME, interpretConfigSource, readConfigSource } from './config-source-file.js';
export type { ConfigSourcesOptions } from './config-sources.js';
export { loadSettings, projectConfigPath } from './config-sources.js';
export type { DoctorReport } from './doctor.js';
export { createDoctorReport, doctor, renderDoctorReport } from './doctor.js';
export type { EnsureGlobalConfigOptions } from './ensure-global-config.js';
export { ensureGlobalConfig } from './ensure-global-config.js';
export type { HomeAccessFinding } from './home-access.js';
export { inspectHomeAccess } from './home-access.js';
export type { MemberIdTransaction } from './member-id-registry.js';
export { MemberIdRegistry } from './member-id-registry.js';
export type { RegistryWarning, RegistryWarningTopic } from './registry-warning.js';
export type { StartableTeam } from './resolve-startable-team.js';
export { resolveStartableTeam } from './resolve-startable-team.js';
export type {
  IgnoredRedLineSetting,
  InvalidSettingValue,
  RegistryScope,
  ResolvedSetting,
  ResolvedSettings,
  SettingDefinition,
  SettingKey,
  SettingSource,
  SettingsLayer,
  SettingsValues,
  UnknownSettingKey,
} from './settings.js';
export { RETIRED_SETTINGS, resolveSettings, SETTINGS, shownSettingValue } from './settings.js';
export type {
  DefaultLead,
  EffectiveTeam,
  LoadTeamLibraryOptions,
  ShadowedTeam,
  SkippedTeam,
  TeamLibrary,
  TeamLibrarySource,
  TeamRegistration,
} from './team-library.js';
export { loadTeamLibrary, resolveTeam, TEAMS_PREFIX } from './team-library.js';
export type { ParsedMember, ParsedTeam } from './team-package.js';
export {
  AGENT_FILE_SUFFIX,
  FLAT_TEAM_FILE,
  parseTeamFolder,
  TEAM_DOC_FILE,
  TEAM_MANIFEST_FILE,
  TEAM_POLICY_FILE,
  TeamManifestSchema,
} from './team-package.js';
export type { ValidatedTeam } from './validate-team.js';
export { validateTeam } from './validate-team.js';
