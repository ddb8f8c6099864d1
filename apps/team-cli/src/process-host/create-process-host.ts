import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { access, unlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import {
  type DeliverInput,
  type DeliveryOutcome,
  type InterruptOutcome,
  readProcessFacts,
  readWaitingMarker,
  type SignalOutcome,
  type SpawnMemberInput,
  TEAM_HOST_SPECIFICATION_VERSION,
  type TeamHostV1,
  TeamkitError,
  type TmuxRunner,
} from '@teamkit/team-core';
import {
  DEFAULT_AGENT_COMMAND,
  expandAgentCommand,
  parseAgentCommand,
  resolveScriptedAgent,
} from './agent-command.js';
import { dropHandoff, takenHandoffPath } from './member-presence.js';
import {
  inspectProcessSession,
  memberProcessExpectation,
  type SessionCheck,
  signalProcessSession,
  stopProcessSession,
} from './member-signals.js';
import { processSessionId } from './process-session.js';
import { startMemberInPane } from './tmux-member-pane.js';

/** Options for {@link createProcessHost}. */
export interface ProcessHostOptions {
  home: string;
  /** The `--agent-cmd` template; default `teamkit-agent` (the scripted agent). */
  agentCommand?: string;
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
  /** The argv a member would be started with (after placeholders). */
  commandFor(input: SpawnMemberInput, promptFile: string): string[];
  /**
   * Whether a session's recorded process may be signalled now, and why not: the check
   * every signal of this host passes first (a pid above 1, the recorded start time, the
   * member's start environment). Callers report sessions that fail it.
   */
  inspectSession(sessionId: string): SessionCheck;
  /** SIGKILLs a session's process group at once, after the same check. */
  killMember(sessionId: string): SignalOutcome | undefined;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The host kind the process host records in every run it starts (`state.hostId`). */
export const PROCESS_HOST_ID = 'process';

/**
 * Creates the host that runs every member as an operating-system process: the agent
 * command runs in the member's folder with the `TEAMKIT_*` environment, detached in its
 * own process group, with output to `runtime/<run>/logs/<member>.log`. The member reads
 * its own inbox; `deliver` only hands mail over to a member blocked in `team inbox --wait`.
 */
export function createProcessHost(options: ProcessHostOptions): ProcessHost {
  const template = parseAgentCommand(options.agentCommand ?? DEFAULT_AGENT_COMMAND);
  const started = new Map<string, ProcessMember>();
  const stopGraceMs = options.stopGraceMs ?? 3_000;
  const handoffTimeoutMs = options.handoffTimeoutMs ?? 3_000;
  const expectation = memberProcessExpectation(options.home);

  const alive = (sessionId: string): boolean =>
    inspectProcessSession(sessionId, expectation).verdict === 'ours';

  // The start time as the system reports it, so later checks compare like with like.
  const startTimeOf = (pid: number, fallback: number) =>
    readProcessFacts(pid)?.startedAt ?? fallback;

  const commandFor = (input: SpawnMemberInput, promptFile: string): string[] =>
    resolveScriptedAgent(
      expandAgentCommand(template, {
        member: input.member.name,
        role: input.member.role,
        run: input.runId,
        team: input.teamName,
        'prompt-file': promptFile,
        home: options.home,
        cwd: input.cwd,
        model: input.member.model ?? '',
      }),
    );

  const host: ProcessHost = {
    specificationVersion: TEAM_HOST_SPECIFICATION_VERSION,
    hostId: PROCESS_HOST_ID,
    started,
    commandFor,
    async spawnMember(input) {
      const root = path.join(options.home, 'runtime', input.runId);
      const promptFile = path.join(root, 'prompts', `${input.member.name}.md`);
      mkdirSync(path.dirname(promptFile), { recursive: true });
      await writeFile(promptFile, input.member.prompt);
      const argv = commandFor(input, promptFile);
      const logFile = path.join(root, 'logs', `${input.member.name}.log`);
      mkdirSync(path.dirname(logFile), { recursive: true });
      if (options.tmux !== undefined) {
        const startedAt = Date.now();
        const pane = await startMemberInPane({
          runner: options.tmux.runner,
          runId: input.runId,
          member: input.member.name,
          ...(input.member.color === undefined ? {} : { color: input.member.color }),
          cwd: input.cwd,
          env: input.env,
          argv,
          ...(options.tmux.callerPaneId === undefined
            ? {}
            : { callerPaneId: options.tmux.callerPaneId }),
          logFile,
        });
        // Whoever supervises the run later starts waiting members the same way.
        await writeFile(
          path.join(root, 'member-panes.json'),
          `${JSON.stringify({ version: 1, socket: options.tmux.runner.socket ?? null, callerPaneId: options.tmux.callerPaneId ?? null })}\n`,
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
      const log = openSync(logFile, 'a');
      const startedAt = Date.now();
      let child: ReturnType<typeof spawn>;
      try {
        child = spawn(argv[0] as string, argv.slice(1), {
          cwd: input.cwd,
          env: { ...process.env, ...input.env },
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
      const marker = await readWaitingMarker(options.home, input.runId, input.member);
      if (marker === undefined || !marker.handoff) return 'deferred';
      const file = await dropHandoff(options.home, input.runId, input.member, {
        version: 1,
        messages: input.messages,
        text: input.text,
      });
      const taken = takenHandoffPath(file);
      const exists = (target: string) =>
        access(target).then(
          () => true,
          () => false,
        );
      const deadline = Date.now() + handoffTimeoutMs;
      while (Date.now() < deadline) {
        if (!(await exists(file)) && !(await exists(taken))) return 'delivered';
        await sleep(25);
      }
      // Not taken in time: take it back. Taken but never confirmed: the reader may have
      // died before showing it, so the runtime keeps the mail (receivers dedupe by id).
      await unlink(file).catch(() => {});
      if (await exists(taken)) await unlink(taken).catch(() => {});
      return 'deferred';
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
