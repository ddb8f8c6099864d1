import type { ConfigSourceStatus } from './config-source-file.js';
import { type HomeAccessFinding, inspectHomeAccess } from './home-access.js';
import type { RegistryWarning } from './registry-warning.js';
import type {
  IgnoredRedLineSetting,
  InvalidSettingValue,
  RegistryScope,
  ResolvedSetting,
  UnknownSettingKey,
} from './settings.js';
import { shownSettingValue } from './settings.js';
import {
  type DefaultLead,
  type LoadTeamLibraryOptions,
  loadTeamLibrary,
  type ShadowedTeam,
  type SkippedTeam,
  type TeamLibrary,
} from './team-library.js';

/** What `doctor` found: where Teamkit looked, what it loaded, and everything it refused. */
export interface DoctorReport {
  home: string;
  project?: string;
  sources: Array<{ scope: RegistryScope; file: string; status: ConfigSourceStatus }>;
  teams: Array<{
    id: string;
    scope: RegistryScope;
    priority: number;
    enabled: boolean;
    builtin: boolean;
    lead: string;
    members: number;
    folder: string;
  }>;
  defaultLead?: DefaultLead;
  shadows: ShadowedTeam[];
  skipped: SkippedTeam[];
  settings: ResolvedSetting[];
  ignoredRedLine: IgnoredRedLineSetting[];
  unknownKeys: UnknownSettingKey[];
  invalidSettings: InvalidSettingValue[];
  /** Warnings about sources and loaded teams that no other section lists. */
  warnings: RegistryWarning[];
  /** Where the home or its `runtime/` folder lets other local users in; empty when private. */
  homeAccess: HomeAccessFinding[];
}

/** Builds a doctor report from an already loaded library (and the home's access findings). */
export function createDoctorReport(
  library: TeamLibrary,
  homeAccess: HomeAccessFinding[] = [],
): DoctorReport {
  return {
    home: library.home,
    ...(library.project === undefined ? {} : { project: library.project }),
    sources: library.sources,
    teams: library.teams.map((team) => ({
      id: team.id,
      scope: team.scope,
      priority: team.priority,
      enabled: team.enabled,
      builtin: team.builtin,
      lead: team.spec.lead,
      members: team.spec.members.length,
      folder: team.folder,
    })),
    ...(library.defaultLead === undefined ? {} : { defaultLead: library.defaultLead }),
    shadows: library.shadows,
    skipped: library.skipped,
    settings: library.settings.entries.map((entry) => ({
      ...entry,
      value: shownSettingValue(entry.key, entry.value),
    })),
    ignoredRedLine: library.settings.ignoredRedLine.map((item) => ({
      ...item,
      value: shownSettingValue(item.key, item.value),
    })),
    unknownKeys: library.settings.unknownKeys,
    invalidSettings: library.settings.invalid.map((item) => ({
      ...item,
      value: shownSettingValue(item.key, item.value),
    })),
    warnings: library.warnings.filter(
      (warning) => warning.topic === 'source' || warning.topic === 'team',
    ),
    homeAccess,
  };
}

/**
 * Loads the team library for `home`/`project` and reports on it, with a check that the
 * home is private to the user. Reads only; a broken file shows up in the report, never
 * as a thrown error.
 */
export async function doctor(options: LoadTeamLibraryOptions = {}): Promise<DoctorReport> {
  const library = await loadTeamLibrary(options);
  return createDoctorReport(library, await inspectHomeAccess(library.home));
}

const STATUS_TEXT: Record<ConfigSourceStatus, string> = {
  loaded: 'loaded',
  missing: 'missing',
  template: 'missing; packaged template used',
  invalid: 'invalid; skipped',
};

function section(title: string, lines: string[], empty = 'none'): string[] {
  return [title, ...(lines.length === 0 ? [`  ${empty}`] : lines.map((line) => `  ${line}`)), ''];
}

/** Renders a doctor report as plain text, one section per heading, for a terminal. */
export function renderDoctorReport(report: DoctorReport): string {
  const lines: string[] = [
    `Teamkit home: ${report.home}`,
    `Project:      ${report.project ?? '(none)'}`,
    '',
    ...section(
      'Sources',
      report.sources.map(
        (source) => `${source.scope.padEnd(7)} ${source.file} (${STATUS_TEXT[source.status]})`,
      ),
    ),
    ...section(
      'Teams (effective order)',
      report.teams.map(
        (team, index) =>
          `${index + 1}. ${team.id}  scope=${team.scope} priority=${team.priority}${team.enabled ? '' : ' disabled'}${team.builtin ? ' built-in' : ''}  lead=${team.lead} members=${team.members}  ${team.folder}`,
      ),
    ),
    `Default lead: ${report.defaultLead === undefined ? '(none)' : `${report.defaultLead.member} of ${report.defaultLead.teamId} (${report.defaultLead.scope})`}`,
    '',
    ...section(
      'Shadows',
      report.shadows.map((shadow) => shadow.message),
    ),
    ...section(
      'Skipped teams',
      report.skipped.map(
        (skip) => `${skip.scope} ${JSON.stringify(skip.entry)}: [${skip.code}] ${skip.reason}`,
      ),
    ),
    ...section(
      'Settings',
      report.settings.map(
        (setting) =>
          `${setting.key} = ${JSON.stringify(setting.value)}  (${setting.source}${setting.file === undefined ? '' : ` ${setting.file}`})`,
      ),
    ),
    ...section(
      'Ignored red-line settings',
      report.ignoredRedLine.map((item) => item.message),
    ),
    ...section('Unknown setting keys', [
      ...report.unknownKeys.map(
        (item) =>
          `${item.key} (${item.scope} ${item.file})${item.retired === undefined ? '' : `: no longer read, ${item.retired}`}`,
      ),
      ...report.invalidSettings.map((item) => item.message),
    ]),
    ...section(
      'Warnings',
      report.warnings.map((warning) => `[${warning.code}] ${warning.message}`),
    ),
    ...section(
      'Home permissions',
      (report.homeAccess ?? []).map((finding) => `[${finding.issue}] ${finding.message}`),
      'private to you',
    ),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
