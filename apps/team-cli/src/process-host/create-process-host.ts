import { spawn } from 'node:child_process';
import { closeSync } from 'node:fs';
import {
  type DeliverInput,
  type DeliveryOutcome,
  type InterruptOutcome,
  type SpawnMemberInput,
  TEAM_HOST_SPECIFICATION_VERSION,
  type TeamHostV1,
  TeamkitError,
} from '@teamkit/team-core';
import { readProcessFacts, type SignalOutcome } from '@teamkit/team-core/processes';
import {
  createFileStore,
  openPrivateAppend,
  putDocument,
  runKeys,
  type TeamkitStore,
  writePrivateFile,
} from '@teamkit/team-core/storage';
import type { TmuxRunner } from '@teamkit/team-core/tmux';
import { DEFAULT_AGENT_COMMAND, parseAgentCommand } from './agent-command.js';
import {
  agentCommandValues,
  type MemberLaunchPlan,
  planMemberLaunch,
} from './member-launch-plan.js';
import { MemberPanesSchema, memberPanesKey } from './member-panes.js';
import { awaitHandoff, dropHandoff, readWaitingMarker } from './member-presence.js';
import {
  inspectProcessSession,
  memberProcessExpectation,
  type SessionCheck,
  signalProcessSession,
  stopProcessSession,
} from './member-signals.js';
import { processSessionId } from './process-session.js';
import { type MemberLaunch, readRunLaunch } from './run-launch.js';
import { recordSpawn, SPAWN_NONCE_VARIABLE } from './spawn-records.js';
import { currentTeamCommand, ensureTeamShim, prependToPath } from './team-shim.js';
import { startMemberInPane } from './tmux-member-pane.js';

/** Options for {@link createProcessHost}. */
export interface ProcessHostOptions {
  home: string;
  /**
   * The `--agent-cmd` template (long-lived) of members whose run has no launch record
   * (`runtime/<run>/launch.json`, written by `team run start`); default `teamkit-agent`.
   */
  agentCommand?: string;
  /** The `team` command members get on their PATH and turn runners run; default this CLI. */
  teamCommand?: { node: string; bin: string };
  /**
   * Run each member as the process of its own tmux pane (an interactive agent CLI gets a
   * terminal): inside tmux the caller's window is split, else a detached session per run.
   * Without it, members run in the background with output to their log file.
   */
  tmux?: { runner: TmuxRunner; callerPaneId?: string };
  /** How long `stopMember` waits after SIGTERM before SIGKILL; default 3000 ms. */
  stopGraceMs?: number;
  /** How long `deliver` waits for a waiting `team inbox --wait` to take a handoff; default 3000 ms. */
  handoffTimeoutMs?: number;
  /** Where run state lives: the store the front door (the CLI command) selected. */
  store: TeamkitStore;
}

/** A process member this host started in this process. */
export interface ProcessMember {
  sessionId: string;
  pid: number;
  runId: string;
  member: string;
  argv: string[];
  logFile: string;
  /** The tmux pane the member runs in, in tmux mode. */
  paneId?: string;
  /** The exit code (or signal) once the process ended, when this process saw it end. */
  exit?: { code: number | null; signal: NodeJS.Signals | null };
}

/** The process host: {@link TeamHostV1} plus what a supervisor needs to know about its members. */
export interface ProcessHost extends TeamHostV1 {
  /** Members started by this host object, by session id. */
  readonly started: ReadonlyMap<string, ProcessMember>;
  /** How a member would be started (its launch record, then placeholders expanded). */
  planFor(input: SpawnMemberInput, promptFile: string): Promise<MemberLaunchPlan>;
  /**
   * Whether a session's recorded process may be signalled now, and why not: the check
   * every signal of this host passes first (a pid above 1, the recorded start time, the
   * member's start environment). Callers report sessions that fail it.
   */
  inspectSession(sessionId: string): SessionCheck;
  /** SIGKILLs a session's process group at once, after the same check. */
  killMember(sessionId: string): SignalOutcome | undefined;
}

/** The host kind the process host records in every run it starts (`state.hostId`). */
export const PROCESS_HOST_ID = 'process';

/**
 * Creates the host that runs every member as an operating-system process: the agent
 * command runs in the member's folder with the `TEAMKIT_*` environment, detached in its
 * own process group, with output to `runtime/<run>/logs/<member>.log`. The member reads
 * its own inbox; `deliver` only hands mail over to a member blocked in `team inbox --wait`.
 */
export function createProcessHost(options: ProcessHostOptions): ProcessHost {
  const fallbackTemplate = options.agentCommand ?? DEFAULT_AGENT_COMMAND;
  // A bad template is refused when the host is made, not when the first member starts.
  parseAgentCommand(fallbackTemplate);
  const teamCommand = options.teamCommand ?? currentTeamCommand();
  const launches = new Map<string, Promise<Record<string, MemberLaunch> | undefined>>();
  const started = new Map<string, ProcessMember>();
  const stopGraceMs = options.stopGraceMs ?? 3_000;
  const handoffTimeoutMs = options.handoffTimeoutMs ?? 3_000;
  const expectation = memberProcessExpectation(options.home);
  const { store } = options;

  const alive = (sessionId: string): boolean =>
    inspectProcessSession(sessionId, expectation).verdict === 'ours';

  // The start time as the system reports it, so later checks compare like with like.
  const startTimeOf = (pid: number, fallback: number) =>
    readProcessFacts(pid)?.startedAt ?? fallback;

  const launchOf = async (input: SpawnMemberInput): Promise<MemberLaunch> => {
    let record = launches.get(input.runId);
    if (record === undefined) {
      record = readRunLaunch(options.home, input.runId).then((launch) => launch?.members);
      launches.set(input.runId, record);
    }
    return (
      (await record)?.[input.member.name] ?? {
        kind: 'command',
        template: fallbackTemplate,
        mode: 'long-lived',
      }
    );
  };
  const planFor = async (input: SpawnMemberInput, promptFile: string) => {
    const launch = await launchOf(input);
    const model = launch.model ?? input.member.model;
    return planMemberLaunch(
      launch,
      agentCommandValues(options.home, input, promptFile, model),
      teamCommand,
    );
  };
  const host: ProcessHost = {
    specificationVersion: TEAM_HOST_SPECIFICATION_VERSION,
    hostId: PROCESS_HOST_ID,
    started,
    planFor,
    async spawnMember(input) {
      // Prompt files and logs are per-machine files, not state: paths under the home,
      // created private and never through a planted link.
      const root = runKeys(input.runId).root;
      const promptFile = await writePrivateFile(
        options.home,
        `${root}/prompts/${input.member.name}.md`,
        input.member.prompt,
      );
      const { argv } = await planFor(input, promptFile);
      // `team` on the member's PATH is this very CLI, whatever is installed globally.
      const shimFolder = await ensureTeamShim(options.home, teamCommand);
      // Recorded before the process exists: a start killed before the run records the
      // session still leaves a nonce that `team run stop` finds the process by.
      const nonce = await recordSpawn(options.home, input.runId, input.member.name);
      const env: Record<string, string> = {
        ...input.env,
        PATH: prependToPath(shimFolder, process.env.PATH),
        [SPAWN_NONCE_VARIABLE]: nonce,
        // Agent CLIs that read PWD (OpenCode) must see the member's folder, not the caller's.
        PWD: input.cwd,
      };
      const opened = openPrivateAppend(options.home, `${root}/logs/${input.member.name}.log`);
      const logFile = opened.path;
      if (options.tmux !== undefined) closeSync(opened.fd);
      if (options.tmux !== undefined) {
        const startedAt = Date.now();
        const pane = await startMemberInPane({
          runner: options.tmux.runner,
          runId: input.runId,
          member: input.member.name,
          ...(input.member.color === undefined ? {} : { color: input.member.color }),
          cwd: input.cwd,
          env,
          argv,
          ...(options.tmux.callerPaneId === undefined
            ? {}
            : { callerPaneId: options.tmux.callerPaneId }),
          logFile,
        });
        // Whoever supervises the run later starts waiting members the same way. The panes
        // are this machine's, so their record stays in the home folder whatever the store.
        await putDocument(
          createFileStore({ root: options.home }),
          memberPanesKey(root),
          MemberPanesSchema,
          {
            version: 1,
            socket: options.tmux.runner.socket ?? null,
            callerPaneId: options.tmux.callerPaneId ?? null,
          },
        );
        const sessionId = processSessionId(pane.pid, startTimeOf(pane.pid, startedAt));
        started.set(sessionId, {
          sessionId,
          pid: pane.pid,
          runId: input.runId,
          member: input.member.name,
          argv,
          logFile,
          paneId: pane.paneId,
        });
        return { sessionId };
      }
      const log = opened.fd;
      const startedAt = Date.now();
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(argv[0] as string, argv.slice(1), {
          cwd: input.cwd,
          env: { ...process.env, ...env },
          detached: true,
          stdio: ['ignore', log, log],
        });
      } finally {
        closeSync(log);
      }
      const pid = child.pid;
      if (pid === undefined) {
        const reason = await new Promise<string>((resolve) => {
          child.once('error', (error) => resolve(error.message));
          setTimeout(() => resolve('no process id'), 1_000).unref();
        });
        throw new TeamkitError(
          'HOST_FAILED',
          `Could not start ${input.member.name} with ${JSON.stringify(argv[0])}: ${reason}.`,
          { details: { member: input.member.name, command: argv[0] } },
        );
      }
      const sessionId = processSessionId(pid, startTimeOf(pid, startedAt));
      const record: ProcessMember = {
        sessionId,
        pid,
        runId: input.runId,
        member: input.member.name,
        argv,
        logFile,
      };
      child.once('exit', (code, signal) => {
        record.exit = { code, signal };
      });
      child.unref();
      started.set(sessionId, record);
      return { sessionId };
    },
    async deliver(input: DeliverInput): Promise<DeliveryOutcome> {
      if (!alive(input.sessionId)) return 'deferred';
      const marker = await readWaitingMarker(input.runId, input.member, store);
      if (marker === undefined || !marker.handoff) return 'deferred';
      const id = await dropHandoff(
        input.runId,
        input.member,
        { version: 1, messages: input.messages, text: input.text },
        store,
      );
      return awaitHandoff(input.runId, input.member, id, handoffTimeoutMs, store);
    },
    async isAlive(sessionId) {
      return alive(sessionId);
    },
    async interrupt(sessionId): Promise<InterruptOutcome> {
      const outcome = signalProcessSession(sessionId, 'SIGINT', expectation);
      return outcome?.outcome === 'signalled' ? 'interrupted' : 'unknown';
    },
    async stopMember(sessionId) {
      await stopProcessSession(sessionId, expectation, stopGraceMs);
    },
    inspectSession: (sessionId) => inspectProcessSession(sessionId, expectation),
    killMember: (sessionId) => signalProcessSession(sessionId, 'SIGKILL', expectation),
    attachCommand(sessionId) {
      // In tmux mode the member already runs in its own pane; otherwise a pane can follow its log.
      const record = started.get(sessionId);
      if (record === undefined || record.paneId !== undefined) return undefined;
      return ['tail', '-n', '+1', '-F', record.logFile];
    },
  };
  return host;
}
