import { spawn } from 'node:child_process';
import {
  loadTeamLibrary,
  openRun,
  type StopRunReport,
  TeamkitError,
  type TeamkitErrorCode,
} from '@teamkit/team-core';
import type { TeamkitStore } from '@teamkit/team-core/storage';
import { startableTeams, type TeamRunControl } from '@teamkit/team-core/tools';

/** Where the `team` CLI is and how the server runs it. */
export interface CliRunControlOptions {
  /** The `team` CLI's program file (its `dist/bin.js`), run with this Node. */
  teamCli: string;
  /** The Teamkit home the server acts in. */
  home: string;
  /** The store holding the home's runs. */
  store: TeamkitStore;
  /** The environment the CLI runs with: the server's own, so it is the same caller. */
  env: NodeJS.ProcessEnv;
  /** The agent command members start with (`team run start --agent-cmd`). */
  agentCommand?: string;
}

/** The longest a `team run start` or `team run stop` may take before the call fails. */
const CLI_TIMEOUT_MS = 120_000;

interface CliAnswer {
  ok: boolean;
  error?: { code?: string; message?: string };
  [key: string]: unknown;
}

/**
 * Runs `team <args> --json` in its own process group (a lead stopping its own run must not
 * be in the group the stop signals) and resolves with its JSON answer; a refusal becomes
 * the `TeamkitError` the CLI reported, with its code.
 */
function runTeamCli(
  options: CliRunControlOptions,
  command: readonly string[],
  operand: string,
): Promise<CliAnswer> {
  // The operand comes after `--`, so a value can never be read as a flag.
  const args = [...command, '--home', options.home, '--json', '--', operand];
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.teamCli, ...args], {
      env: { ...options.env, NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
    });
    const timer = setTimeout(() => child.kill('SIGTERM'), CLI_TIMEOUT_MS);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(
        new TeamkitError(
          'HOST_CAPABILITY_UNSUPPORTED',
          `Could not run the team CLI (${options.teamCli}): ${error.message}.`,
        ),
      );
    });
    child.once('close', (code) => {
      clearTimeout(timer);
      const last = stdout.trim().split('\n').at(-1) ?? '';
      let answer: CliAnswer | undefined;
      try {
        answer = JSON.parse(last) as CliAnswer;
      } catch {
        answer = undefined;
      }
      if (answer?.ok === true) return resolve(answer);
      const error = answer?.error;
      reject(
        new TeamkitError(
          (error?.code ?? 'INTERNAL') as TeamkitErrorCode,
          error?.message ??
            `team ${command.slice(0, 2).join(' ')} ended with code ${code}: ${stderr.trim().slice(-500)}`,
          { details: { command: `team ${args.join(' ')}` } },
        ),
      );
    });
  });
}

/**
 * Starting and ending runs through the `team` CLI, which hosts members (the core's
 * `startRun` and `stopRun` need a host that spawns processes; the stdio server has none):
 * `create` is `team run start <team> --no-tmux`, members in the background under the
 * CLI's supervisor; `delete` is `team run stop <run>`, with its refusals. The CLI runs
 * with the server's environment, so it is the same caller and checks the same rights.
 */
export function createCliRunControl(options: CliRunControlOptions): TeamRunControl {
  return {
    async listTeams() {
      const library = await loadTeamLibrary({ home: options.home, env: options.env });
      return startableTeams(library);
    },
    async startRun(team) {
      const chosen =
        team ??
        (await loadTeamLibrary({ home: options.home, env: options.env })).defaultLead?.teamId;
      if (chosen === undefined) {
        throw new TeamkitError(
          'TEAM_NOT_FOUND',
          'No default team is set: name the team (see the list tool, or `team teams`).',
        );
      }
      const answer = await runTeamCli(
        options,
        [
          'run',
          'start',
          '--no-tmux',
          ...(options.agentCommand === undefined ? [] : ['--agent-cmd', options.agentCommand]),
        ],
        chosen,
      );
      const runId = String(answer.runId);
      return {
        runId,
        state: await openRun({ home: options.home, runId, store: options.store }).state.read(),
        spawned: (answer.spawned as string[] | undefined) ?? [],
        waiting: (answer.waiting as string[] | undefined) ?? [],
        layout: {
          status: 'skipped',
          reason: 'members run in the background (logs in runtime/<run>/logs/)',
        },
      };
    },
    async stopRun(runId, { force }) {
      const answer = await runTeamCli(
        options,
        ['run', 'stop', ...(force ? ['--force'] : [])],
        runId,
      );
      return answer.report as StopRunReport;
    },
  };
}
