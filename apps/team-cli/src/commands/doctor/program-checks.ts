import { spawnSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { AGENT_PRESETS, findOnPath, locatePresetProgram } from '../../agent-presets/index.js';

/** What `team doctor` found for one program Teamkit runs. */
export interface ProgramCheck {
  /** The command name: `git`, `tmux`, `team`. */
  name: string;
  /** Whether a run can go without it (`tmux`: members then run in the background). */
  optional: boolean;
  found: boolean;
  /** Where it was found on PATH. */
  path?: string;
  /** The first line of its `--version` (`-V` for tmux). */
  version?: string;
  /** What is wrong and what to do; absent when all is well. */
  advice?: string;
}

function versionOf(file: string, flag: string, env: NodeJS.ProcessEnv): string | undefined {
  const result = spawnSync(file, [flag], { encoding: 'utf8', env, timeout: 30_000 });
  if (result.status !== 0) return undefined;
  return result.stdout.split('\n')[0]?.trim() || undefined;
}

function realOrSelf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return file;
  }
}

/** This CLI's own bin, `dist/bin.js` of `@teamkit/team-cli`. */
export function ownBin(): string {
  return realOrSelf(fileURLToPath(new URL('../../bin.js', import.meta.url)));
}

/** A program found at `file` (or not): its version from `flag`, or what to do. */
function checkFile(
  name: string,
  file: string | undefined,
  check: { flag: string; optional: boolean; missing: string; reinstall: string },
  env: NodeJS.ProcessEnv,
): ProgramCheck {
  const { flag, optional } = check;
  if (file === undefined) return { name, optional, found: false, advice: check.missing };
  const version = versionOf(file, flag, env);
  return {
    name,
    optional,
    found: true,
    path: file,
    ...(version === undefined
      ? { advice: `${file} did not answer ${flag}; reinstall ${check.reinstall}` }
      : { version }),
  };
}

function checkTool(
  name: string,
  flag: string,
  optional: boolean,
  missing: string,
  env: NodeJS.ProcessEnv,
): ProgramCheck {
  return checkFile(name, findOnPath(name, env), { flag, optional, missing, reinstall: name }, env);
}

/**
 * Members run `team` from their own shell, so it must be on the PATH they inherit, and
 * should be this CLI (another install may be of another version).
 */
function checkTeamBin(env: NodeJS.ProcessEnv, self: string): ProgramCheck {
  const file = findOnPath('team', env);
  const howTo =
    'put it on PATH (docs/getting-started.md, "Put team on your PATH"): ln -sf ' +
    `${self} ~/.local/bin/team, with ~/.local/bin on PATH`;
  if (file === undefined) {
    return {
      name: 'team',
      optional: false,
      found: false,
      advice: `members run \`team\` but it is not on PATH; ${howTo}`,
    };
  }
  const real = realOrSelf(file);
  return {
    name: 'team',
    optional: false,
    found: true,
    path: file,
    ...(real === self
      ? {}
      : {
          advice: `\`team\` on PATH is ${real}, not this CLI (${self}); members would run that one. Point PATH at this one or run that one`,
        }),
  };
}

/**
 * Each agent preset's command line program (`TEAMKIT_<NAME>_BIN` or PATH), with its
 * version; optional one by one, since a team needs only the agents it names.
 */
function checkPresets(env: NodeJS.ProcessEnv): ProgramCheck[] {
  return Object.values(AGENT_PRESETS).flatMap((preset) => {
    if (preset.install === undefined) return [];
    const { packageName, checkedVersion } = preset.install;
    const missing = `the ${preset.name} preset's \`${preset.program}\` is not on PATH; members with --agent ${preset.name} need it: npm install -g ${packageName}@${checkedVersion} (the version Teamkit is tested with)`;
    const file = locatePresetProgram(preset, env);
    return [
      checkFile(
        preset.program,
        file,
        { flag: '--version', optional: true, missing, reinstall: packageName },
        env,
      ),
    ];
  });
}

/** Checks git, tmux, the `team` bin that members will run and each agent preset's program. */
export function checkPrograms(env: NodeJS.ProcessEnv, self: string = ownBin()): ProgramCheck[] {
  return [
    checkTool(
      'git',
      '--version',
      false,
      'git is not on PATH; install it (e.g. apt-get install git): runs with --repo need it',
      env,
    ),
    checkTool(
      'tmux',
      '-V',
      true,
      'tmux is not on PATH; members run in the background without panes. Install it (e.g. apt-get install tmux) for panes',
      env,
    ),
    checkTeamBin(env, self),
    ...checkPresets(env),
  ];
}

/** The programs part of `team doctor`'s text report. */
export function renderProgramChecks(checks: readonly ProgramCheck[]): string {
  const lines = ['programs:'];
  for (const check of checks) {
    const mark = check.advice === undefined ? 'ok  ' : check.optional ? 'note' : 'FIX ';
    const where = check.found
      ? `${check.path}${check.version ? ` (${check.version})` : ''}`
      : 'not found';
    lines.push(`  ${mark} ${check.name}: ${where}`);
    if (check.advice !== undefined) lines.push(`       ${check.advice}`);
  }
  return lines.join('\n');
}
