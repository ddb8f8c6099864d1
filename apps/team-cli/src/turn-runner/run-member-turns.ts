import { readFile } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';
import {
  isTeamkitError,
  type MemberStatus,
  type Message,
  openRun,
  type RunMember,
  type RuntimeState,
} from '@teamkit/team-core';
import { errorMessage } from '@teamkit/team-core/errors';
import { recordTurn, WORKING_RUN_STATUSES } from '@teamkit/team-core/state';
import type { LockOptions, TeamkitStore } from '@teamkit/team-core/storage';
import type { PreparedAgent } from '../agent-presets/index.js';
import { markWaiting } from '../process-host/member-presence.js';
import { writePresetFiles } from './prepare-turn-agent.js';
import { startTurnProcess, type TurnProcess } from './run-turn-process.js';
import { firstTurnPrompt, nextTurnPrompt } from './turn-prompts.js';
import { readTurnSession, type TurnSession, writeTurnSession } from './turn-session.js';
import { type TurnWakeups, watchTurnWakeups } from './turn-wakeups.js';

/** Options of {@link runMemberTurns}. */
export interface MemberTurnsOptions {
  home: string;
  /** The store holding the member's run (the one `team member-turns` selected). */
  store: TeamkitStore;
  runId: string;
  member: string;
  /** The member's agent, bound to it (preset files already written). */
  agent: PreparedAgent;
  /** The member's working folder. */
  cwd: string;
  /** The environment of each turn (the runner's own: identity, secret, `team` on PATH). */
  env: NodeJS.ProcessEnv;
  /** The file holding the member's prompt and the team protocol. */
  promptFile: string;
  /**
   * While waiting, the runner wakes on its inbox's watch and on the run state's; this is
   * how often it (and each watch) looks again anyway, for events a watch lost. Default 30 s.
   */
  reconcileMs?: number;
  /** Retries of a failing turn before the runner gives up; default 3. */
  retries?: number;
  /** The first wait before a retry, doubled each time; default 2000 ms. */
  retryDelayMs?: number;
  /** Lock tuning for state writes. */
  lock?: LockOptions;
  /** Ends the runner (after ending the current turn). */
  signal?: AbortSignal;
  /** Where the runner reports what it does; default standard error (the member's log). */
  log?: (line: string) => void;
  /** Where a turn's output goes; default this process's stdout and stderr. */
  echo?: { stdout: (chunk: Buffer) => void; stderr: (chunk: Buffer) => void };
}

/** Why the runner returned: the exit code it should end with, and why. */
export interface MemberTurnsOutcome {
  code: number;
  reason: string;
}

/** The runner's handle for `interrupt`: ends the current turn, if any, and keeps waiting. */
export interface TurnInterrupter {
  interrupt(): Promise<boolean>;
}

const ENDED: readonly MemberStatus[] = ['terminated', 'errored', 'shutdown_approved'];

function goalOf(state: RuntimeState): string | undefined {
  // The run's goal (`state.goal.text`) when the run has one.
  const goal = (state as { goal?: { text?: unknown } }).goal;
  return typeof goal?.text === 'string' ? goal.text : undefined;
}

function othersTerminated(state: RuntimeState, me: RunMember): boolean {
  return state.members.every((member) => member === me || member.status === 'terminated');
}

/**
 * The turn runner of a turn-based member: the member's process as the host sees it. It
 * loops: wait for unread mail (with a presence marker, so the supervisor counts the member
 * idle and the parallel bound frees), move the member back to `running` when the bound
 * allows, reserve the mail (the messages are delivered to that turn), count the turn
 * (`maxTurnsPerMember` and the wall clock apply), run one turn of the agent CLI — the
 * first with the member's prompt (and the run's goal for the lead), later ones continuing
 * the same conversation with the new messages as the prompt — then acknowledge the mail
 * when the turn exits 0. A failing turn releases its mail and is retried with backoff
 * `retries` times; then the runner returns a non-zero code (the supervisor marks the
 * member errored and returns its tasks). The lead's runner returns 0 by itself once every
 * other member is terminated and it has no unread mail. Returns 0 when the member's part
 * ends (shutdown approved, run stopped) or `signal` aborts.
 */
export function createMemberTurns(options: MemberTurnsOptions): TurnInterrupter & {
  run(): Promise<MemberTurnsOutcome>;
} {
  const { home, runId, member } = options;
  const reconcileMs = options.reconcileMs ?? 30_000;
  const retries = options.retries ?? 3;
  const retryDelayMs = options.retryDelayMs ?? 2_000;
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const { store } = options;
  const lock = options.lock === undefined ? {} : { lock: options.lock };
  const stateOptions = { store, actor: member, ...lock };
  const handle = openRun({ home, runId, store, actor: member, ...lock });
  const { mailbox } = handle;
  let current: TurnProcess | undefined;
  let interrupted = false;
  // Stopping the runner ends its turn with everything the turn started.
  options.signal?.addEventListener('abort', () => void current?.stop(), { once: true });

  async function moveToRunning(): Promise<'running' | 'bound' | 'changed'> {
    try {
      const state = await handle.state.update((draft) => {
        const target = draft.members.find((candidate) => candidate.name === member);
        if (target?.status === 'idle') {
          target.status = 'running';
          target.lastSeenAt = Date.now();
        }
        return draft;
      });
      const status = state.members.find((candidate) => candidate.name === member)?.status;
      return status === 'running' ? 'running' : 'changed';
    } catch (error) {
      if (isTeamkitError(error, 'BOUND_EXCEEDED')) return 'bound';
      throw error;
    }
  }

  async function runTurn(prompt: string, sessionId: string | undefined) {
    if (options.agent.turnFile !== undefined)
      await writePresetFiles(home, [{ path: options.agent.turnFile, text: prompt }]);
    const argv = options.agent.turnArgv({
      prompt,
      ...(sessionId === undefined ? {} : { sessionId }),
    });
    interrupted = false;
    current = startTurnProcess(argv, {
      cwd: options.cwd,
      // PWD too: OpenCode takes its project folder from it, not from the process's folder.
      env: { ...options.env, ...options.agent.env, PWD: options.cwd },
      ...(options.echo === undefined
        ? {
            echo: {
              stdout: (chunk: Buffer) => process.stdout.write(chunk),
              stderr: (chunk: Buffer) => process.stderr.write(chunk),
            },
          }
        : { echo: options.echo }),
    });
    try {
      return { ...(await current.done), interrupted };
    } finally {
      current = undefined;
    }
  }

  async function run(): Promise<MemberTurnsOutcome> {
    const memberPrompt = await readFile(options.promptFile, 'utf8');
    let session: TurnSession = (await readTurnSession(home, runId, member)) ?? {
      version: 1,
      member,
      turns: 0,
      updatedAt: Date.now(),
    };
    let stopWaiting: (() => Promise<void>) | undefined;
    const clearWaiting = async () => {
      await stopWaiting?.();
      stopWaiting = undefined;
    };
    let waitingForStart = false;
    const wait = async () => {
      stopWaiting ??= await markWaiting(runId, member, { handoff: false, store });
    };
    // Each pass reads the run state once; mail comes from the inbox's watch. The first pass
    // runs at once, later ones when mail arrives, the run state changes, or the reconcile.
    const wakeups = await watchTurnWakeups(handle, member, {
      reconcileMs,
      ...(options.signal === undefined ? {} : { signal: options.signal }),
      onError: (error) => log(`turn runner: watch: ${errorMessage(error)}`),
    });
    try {
      for (;;) {
        await wakeups.next();
        if (options.signal?.aborted) return { code: 0, reason: 'stopped' };
        const state = await handle.state.read();
        const me = state.members.find((candidate) => candidate.name === member);
        if (me === undefined) return { code: 1, reason: `run ${runId} has no member ${member}` };
        if (ENDED.includes(me.status)) return { code: 0, reason: `member is ${me.status}` };
        // The run is still being set up, or the spawn that started this runner is not
        // recorded yet: nothing to do until the run state changes.
        if (state.status === 'creating' || me.status === 'pending') {
          if (!waitingForStart) log(`turn runner: ${member} waits for its start to be recorded`);
          waitingForStart = true;
          continue;
        }
        if (!WORKING_RUN_STATUSES.includes(state.status))
          return { code: 0, reason: `run is ${state.status}` };
        const firstTurn = session.turns === 0;
        // The first turn takes whatever is unread, even what the watch has not reported yet.
        if (firstTurn) wakeups.add((await mailbox.listUnread(member)).messages);
        const unread = wakeups.mail();
        if (!firstTurn && unread.length === 0) {
          if (me.isLead && othersTerminated(state, me))
            return { code: 0, reason: 'every other member is terminated and no mail is left' };
          await wait();
          continue;
        }
        if (!me.isLead) {
          const moved = await moveToRunning();
          if (moved === 'changed') continue;
          if (moved === 'bound') {
            // The parallel bound is full: stay idle until another member waits (a change
            // of the run state wakes this runner).
            await wait();
            continue;
          }
        }
        await clearWaiting();
        const outcome = await takeTurn(state, memberPrompt, unread, session, wakeups);
        session = outcome.session;
        if (outcome.exit !== undefined) return outcome.exit;
      }
    } finally {
      await wakeups.close();
      await clearWaiting();
    }
  }

  async function takeTurn(
    state: RuntimeState,
    memberPrompt: string,
    unread: readonly Message[],
    session: TurnSession,
    wakeups: TurnWakeups,
  ): Promise<{ session: TurnSession; exit?: MemberTurnsOutcome }> {
    const me = state.members.find((candidate) => candidate.name === member) as RunMember;
    const ids = unread.map((message) => message.messageId);
    const { reserved } =
      ids.length === 0 ? { reserved: [] as Message[] } : await mailbox.reserve(member, ids);
    // Reserved or gone (another reader took them): either way no longer this runner's to take.
    wakeups.forget(ids);
    const reservedIds = reserved.map((message) => message.messageId);
    // Every message was taken by another reader meanwhile: nothing to start a turn for.
    if (session.turns > 0 && reserved.length === 0) return { session };
    for (let attempt = 0; ; attempt += 1) {
      try {
        await recordTurn(home, runId, member, stateOptions);
      } catch (error) {
        if (reservedIds.length > 0) await mailbox.release(member, reservedIds);
        if (isTeamkitError(error, 'BOUND_EXCEEDED') || isTeamkitError(error, 'RUN_NOT_ACTIVE')) {
          log(`turn runner: no more turns for ${member}: ${error.message}`);
          return {
            session,
            exit: { code: isTeamkitError(error, 'RUN_NOT_ACTIVE') ? 0 : 3, reason: error.message },
          };
        }
        throw error;
      }
      const prompt =
        session.sessionId === undefined
          ? firstTurnPrompt({
              memberPrompt,
              ...(me.isLead && goalOf(state) !== undefined
                ? { goal: goalOf(state) as string }
                : {}),
              messages: reserved,
            })
          : nextTurnPrompt(reserved);
      log(
        `turn runner: ${member} turn ${session.turns + 1}${attempt > 0 ? ` (retry ${attempt})` : ''} with ${reserved.length} message(s)${session.sessionId === undefined ? '' : `, continuing ${session.sessionId}`}`,
      );
      const result = await runTurn(prompt, session.sessionId);
      const sessionId = options.agent.sessionIdFrom(result.stdout) ?? session.sessionId;
      const next: TurnSession = {
        version: 1,
        member,
        ...(sessionId === undefined ? {} : { sessionId }),
        turns: session.turns + 1,
        lastExit: result.code ?? 128,
        updatedAt: Date.now(),
      };
      if (result.code === 0 || result.interrupted) {
        // An interrupted turn had its messages: they count as read, not to be replayed.
        if (reservedIds.length > 0) await mailbox.commit(member, reservedIds);
        await writeTurnSession(home, runId, next);
        if (result.interrupted) log(`turn runner: ${member}'s turn was interrupted`);
        return { session: next };
      }
      if (options.signal?.aborted || result.stopped) {
        if (reservedIds.length > 0) await mailbox.release(member, reservedIds);
        return { session, exit: { code: 0, reason: 'stopped' } };
      }
      const how = result.code === null ? `signal ${result.signal}` : `exit ${result.code}`;
      if (attempt >= retries) {
        if (reservedIds.length > 0) await mailbox.release(member, reservedIds);
        await writeTurnSession(home, runId, {
          ...session,
          lastExit: result.code ?? 128,
          updatedAt: Date.now(),
        });
        log(`turn runner: ${member}'s turn failed (${how}) ${attempt + 1} times; giving up`);
        return {
          session,
          exit: { code: 1, reason: `the agent's turn failed ${attempt + 1} times (${how})` },
        };
      }
      const wait = retryDelayMs * 2 ** attempt;
      log(`turn runner: ${member}'s turn failed (${how}); retrying in ${wait} ms`);
      await delay(wait, undefined, { signal: options.signal }).catch(() => {});
      if (options.signal?.aborted) {
        if (reservedIds.length > 0) await mailbox.release(member, reservedIds);
        return { session, exit: { code: 0, reason: 'stopped' } };
      }
    }
  }

  return {
    run,
    async interrupt() {
      const turn = current;
      if (turn === undefined) return false;
      interrupted = true;
      await turn.stop();
      return true;
    },
  };
}
