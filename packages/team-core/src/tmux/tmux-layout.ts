import { quote } from 'shell-quote';
import { errorMessage, TeamkitError } from '../errors/index.js';
import type { TmuxLayout } from '../schema/runtime-state.js';
import { assertRunId } from '../storage/teamkit-home.js';
import type { TmuxRunner } from './tmux-runner.js';

/** One pane to open: the member it shows and the command that shows it. */
export interface LayoutMember {
  /** The member's name; becomes the pane title. */
  name: string;
  /** The host's attach command for the member, as an argument array. */
  command: string[];
  /** A tmux colour (`red`, `colour33`, `#ff8800`) for the member's border label. */
  color?: string;
  /** The folder the command starts in (typically the member's worktree). */
  cwd?: string;
}

/** Input of {@link createTmuxLayout}. */
export interface CreateTmuxLayoutInput {
  runner: TmuxRunner;
  runId: string;
  members: LayoutMember[];
  /**
   * The pane the caller runs in (from `TMUX_PANE`). Given: the caller's window is split.
   * Absent: a detached session `teamkit-<run-short>` is made.
   */
  callerPaneId?: string;
  /** The POSIX shell that runs each quoted command; default `/bin/sh`. */
  shell?: string;
}

/** Pane and session options that mark what a run created, so removal kills only that. */
export const PANE_RUN_OPTION = '@teamkit_pane_run';
/** The member a pane shows. */
export const PANE_MEMBER_OPTION = '@teamkit_member';
/** The member colour used by the border label. */
export const PANE_COLOR_OPTION = '@teamkit_color';
/** The run a detached teamkit session belongs to. */
export const SESSION_RUN_OPTION = '@teamkit_session_run';

const PANE_ID = /^%[0-9]+$/;
const COLOR = /^(?:[a-z]+[0-9]{0,3}|colou?r[0-9]{1,3}|#[0-9a-fA-F]{6})$/;

/** True for a colour tmux styles accept and Teamkit passes on: `red`, `colour33`, `#ff8800`. */
export function isTmuxColor(value: string): boolean {
  return COLOR.test(value);
}
const BORDER_FORMAT = `#{?${PANE_MEMBER_OPTION},#[fg=#{${PANE_COLOR_OPTION}}]#{${PANE_MEMBER_OPTION}}#[default],#{pane_title}}`;

/** The name of a run's detached session: `teamkit-<first 8 characters of the run id>`. */
export function layoutSessionName(runId: string): string {
  return `teamkit-${assertRunId(runId).slice(0, 8)}`;
}

/**
 * Turns an argument array into what a pane runs: `<shell> -c 'exec <quoted args>'`.
 * Each argument is quoted for a POSIX shell, so quotes, `;`, `$()` and backticks in it
 * are passed as text and never run.
 */
export function paneCommand(command: string[], shell = '/bin/sh'): string[] {
  if (
    command.length === 0 ||
    command.some((arg) => typeof arg !== 'string' || arg.includes('\0'))
  ) {
    throw new TeamkitError(
      'INVALID_INPUT',
      'A pane command is a non-empty array of strings without NUL bytes.',
      {
        details: { command },
      },
    );
  }
  return [shell, '-c', `exec ${quote(command)}`];
}

function checkInput(input: CreateTmuxLayoutInput): void {
  assertRunId(input.runId);
  if (input.members.length === 0) {
    throw new TeamkitError('INVALID_INPUT', 'A tmux layout needs at least one member.', {});
  }
  if (input.callerPaneId !== undefined && !PANE_ID.test(input.callerPaneId)) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `The caller pane ${JSON.stringify(input.callerPaneId)} is not a tmux pane id (%N).`,
      {
        details: { callerPaneId: input.callerPaneId },
      },
    );
  }
  for (const member of input.members) {
    if (!/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(member.name)) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Refused pane title ${JSON.stringify(member.name)}: member names are kebab-case.`,
        {
          details: { member: member.name },
        },
      );
    }
    if (member.color !== undefined && !COLOR.test(member.color)) {
      throw new TeamkitError(
        'INVALID_INPUT',
        `Refused colour ${JSON.stringify(member.color)} for ${member.name}.`,
        {
          details: { member: member.name, color: member.color },
        },
      );
    }
    paneCommand(member.command, input.shell);
  }
}

/** A live pane as tmux lists it, with the marks Teamkit put on it. */
export interface ListedPane {
  paneId: string;
  windowId: string;
  sessionId: string;
  title: string;
  startCommand: string;
  runId: string;
  member: string;
}

/** Lists every pane on the runner's server (none when no server runs). */
export async function listPanes(runner: TmuxRunner): Promise<ListedPane[]> {
  const result = await runner.tryRun([
    'list-panes',
    '-a',
    '-F',
    `#{pane_id}\t#{window_id}\t#{session_id}\t#{${PANE_RUN_OPTION}}\t#{${PANE_MEMBER_OPTION}}\t#{pane_title}\t#{pane_start_command}`,
  ]);
  if (result.exitCode !== 0) return [];
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [
        paneId = '',
        windowId = '',
        sessionId = '',
        runId = '',
        member = '',
        title = '',
        ...rest
      ] = line.split('\t');
      return { paneId, windowId, sessionId, runId, member, title, startCommand: rest.join('\t') };
    });
}

/**
 * Marks a pane as a run's member pane (run, member and colour options) and titles it
 * with the member's name, so removal and sweeps find exactly the panes a run made.
 */
export async function markMemberPane(
  runner: TmuxRunner,
  paneId: string,
  runId: string,
  member: { name: string; color?: string },
): Promise<void> {
  await runner.run(['set-option', '-p', '-t', paneId, PANE_RUN_OPTION, runId]);
  await runner.run(['set-option', '-p', '-t', paneId, PANE_MEMBER_OPTION, member.name]);
  await runner.run([
    'set-option',
    '-p',
    '-t',
    paneId,
    PANE_COLOR_OPTION,
    member.color ?? 'default',
  ]);
  // With -T, select-pane only sets the title; it does not change the active pane.
  await runner.run(['select-pane', '-t', paneId, '-T', member.name]);
}

async function showTitles(runner: TmuxRunner, windowId: string): Promise<void> {
  await runner.run(['set-option', '-w', '-t', windowId, 'pane-border-status', 'top']);
  await runner.run(['set-option', '-w', '-t', windowId, 'pane-border-format', BORDER_FORMAT]);
}

function splitArgs(
  direction: '-h' | '-v',
  target: string,
  member: LayoutMember,
  shell?: string,
): string[] {
  return [
    'split-window',
    direction,
    '-d',
    '-t',
    target,
    '-P',
    '-F',
    '#{pane_id}',
    ...(member.cwd === undefined ? [] : ['-c', member.cwd]),
    '--',
    ...paneCommand(member.command, shell),
  ];
}

function failure(
  step: string,
  member: string | undefined,
  cause: unknown,
  created: string[],
  removed: string[],
): TeamkitError {
  const reason = errorMessage(cause);
  return new TeamkitError(
    'TMUX_FAILED',
    `Creating the tmux layout failed at ${step}${member ? ` for ${member}` : ''}: ${reason}. Rolled back the ${removed.length} pane(s) it had created; no layout exists.`,
    { cause, details: { step, member, created, removed } },
  );
}

async function inCallerWindow(
  input: CreateTmuxLayoutInput,
  callerPaneId: string,
): Promise<TmuxLayout> {
  const { runner, runId } = input;
  const caller = (await listPanes(runner)).find((pane) => pane.paneId === callerPaneId);
  if (caller === undefined) {
    throw new TeamkitError(
      'TMUX_FAILED',
      `The caller pane ${callerPaneId} does not exist on this tmux server.`,
      {
        details: { callerPaneId, socket: runner.socket },
      },
    );
  }
  const created: string[] = [];
  const paneIds: Record<string, string> = {};
  let step = 'split';
  let current: string | undefined;
  try {
    for (const [index, member] of input.members.entries()) {
      current = member.name;
      step = 'split-window';
      const target = index === 0 ? callerPaneId : (created[created.length - 1] as string);
      const direction = index === 0 || index % 2 === 0 ? '-h' : '-v';
      const paneId = (await runner.run(splitArgs(direction, target, member, input.shell))).trim();
      if (!PANE_ID.test(paneId))
        throw new Error(`tmux returned ${JSON.stringify(paneId)} instead of a pane id`);
      created.push(paneId);
      paneIds[member.name] = paneId;
      step = 'mark pane';
      await markMemberPane(runner, paneId, runId, member);
      step = 'select-layout';
      await runner.run(['select-layout', '-t', caller.windowId, 'main-vertical']);
    }
    current = undefined;
    step = 'titles';
    await showTitles(runner, caller.windowId);
    step = 'resize caller';
    await runner.run(['resize-pane', '-t', callerPaneId, '-x', '30%']);
  } catch (error) {
    const removed: string[] = [];
    for (const paneId of created) {
      if ((await runner.tryRun(['kill-pane', '-t', paneId])).exitCode === 0) removed.push(paneId);
    }
    throw failure(step, current, error, created, removed);
  }
  return {
    mode: 'caller-window',
    socket: runner.socket,
    sessionName: undefined,
    windowId: caller.windowId,
    callerPaneId,
    ownedSession: false,
    paneIds,
  };
}

async function inDetachedSession(input: CreateTmuxLayoutInput): Promise<TmuxLayout> {
  const { runner, runId } = input;
  const sessionName = layoutSessionName(runId);
  if ((await runner.tryRun(['has-session', '-t', `=${sessionName}`])).exitCode === 0) {
    throw new TeamkitError(
      'TMUX_FAILED',
      `A tmux session ${sessionName} already exists; remove it or sweep stale sessions first.`,
      {
        details: { sessionName, reason: 'session-exists' },
      },
    );
  }
  const [first, ...rest] = input.members as [LayoutMember, ...LayoutMember[]];
  let sessionId: string | undefined;
  let step = 'new-session';
  let current: string | undefined = first.name;
  const paneIds: Record<string, string> = {};
  try {
    const out = await runner.run([
      'new-session',
      '-d',
      '-s',
      sessionName,
      '-x',
      '200',
      '-y',
      '50',
      '-P',
      '-F',
      '#{session_id}\t#{window_id}\t#{pane_id}',
      ...(first.cwd === undefined ? [] : ['-c', first.cwd]),
      '--',
      ...paneCommand(first.command, input.shell),
    ]);
    const [session = '', windowId = '', firstPane = ''] = out.trim().split('\t');
    sessionId = session;
    step = 'mark session';
    await runner.run(['set-option', '-t', sessionId, SESSION_RUN_OPTION, runId]);
    paneIds[first.name] = firstPane;
    step = 'mark pane';
    await markMemberPane(runner, firstPane, runId, first);
    let last = firstPane;
    for (const member of rest) {
      current = member.name;
      step = 'split-window';
      last = (await runner.run(splitArgs('-v', last, member, input.shell))).trim();
      if (!PANE_ID.test(last))
        throw new Error(`tmux returned ${JSON.stringify(last)} instead of a pane id`);
      paneIds[member.name] = last;
      step = 'mark pane';
      await markMemberPane(runner, last, runId, member);
      step = 'select-layout';
      await runner.run(['select-layout', '-t', windowId, 'tiled']);
    }
    current = undefined;
    step = 'titles';
    await showTitles(runner, windowId);
    return {
      mode: 'detached-session',
      socket: runner.socket,
      sessionName,
      windowId,
      callerPaneId: undefined,
      ownedSession: true,
      paneIds,
    };
  } catch (error) {
    const created = Object.values(paneIds);
    let removed: string[] = [];
    if (
      sessionId !== undefined &&
      (await runner.tryRun(['kill-session', '-t', sessionId])).exitCode === 0
    ) {
      removed = created;
    }
    throw failure(step, current, error, created, removed);
  }
}

/**
 * Opens one pane per member, each running its attach command, titled with the member's
 * name and labelled in its colour. With a caller pane, the caller's window is split
 * (first member `split-window -h` from the caller, later ones alternate from the last
 * member pane, then `main-vertical` with the caller at ~30%); otherwise a detached
 * session `teamkit-<run-short>` in a tiled layout. Every command names its target.
 * Creation is serialised per server; a failure kills only the panes this call made and
 * throws `TMUX_FAILED` saying what failed, so a returned layout always exists.
 */
export function createTmuxLayout(input: CreateTmuxLayoutInput): Promise<TmuxLayout> {
  checkInput(input);
  return input.runner.serialize(() =>
    input.callerPaneId === undefined
      ? inDetachedSession(input)
      : inCallerWindow(input, input.callerPaneId),
  );
}

/** What {@link removeTmuxLayout} and {@link closeMemberPane} killed. */
export interface LayoutRemovalReport {
  /** Pane ids (or the session id) killed. */
  killed: string[];
  /** Panes the layout listed that were already gone or no longer the run's. */
  skipped: string[];
}

/**
 * Removes a run's layout, killing only what it created: its own detached session, or
 * the member panes that still carry the run's mark. The caller's pane is never killed.
 */
export function removeTmuxLayout(
  runner: TmuxRunner,
  runId: string,
  layout: TmuxLayout,
): Promise<LayoutRemovalReport> {
  assertRunId(runId);
  return runner.serialize(async () => {
    const report: LayoutRemovalReport = { killed: [], skipped: [] };
    if (layout.ownedSession && layout.sessionName !== undefined) {
      const sessions = await listTeamkitSessions(runner);
      const own = sessions.find(
        (session) => session.name === layout.sessionName && session.runId === runId,
      );
      if (
        own !== undefined &&
        (await runner.tryRun(['kill-session', '-t', own.sessionId])).exitCode === 0
      ) {
        report.killed.push(own.sessionId);
      } else {
        report.skipped.push(layout.sessionName);
      }
      return report;
    }
    const live = await listPanes(runner);
    for (const paneId of Object.values(layout.paneIds)) {
      const pane = live.find((candidate) => candidate.paneId === paneId);
      if (pane === undefined || pane.runId !== runId || paneId === layout.callerPaneId) {
        report.skipped.push(paneId);
        continue;
      }
      if ((await runner.tryRun(['kill-pane', '-t', paneId])).exitCode === 0)
        report.killed.push(paneId);
      else report.skipped.push(paneId);
    }
    const windowId = layout.windowId;
    if (layout.mode === 'caller-window' && windowId !== undefined) {
      const remaining = (await listPanes(runner)).filter(
        (pane) => pane.windowId === windowId && pane.runId === runId,
      );
      if (remaining.length === 0) {
        // The border options were set on the caller's window; give it back its own look.
        await runner.tryRun(['set-option', '-w', '-u', '-t', windowId, 'pane-border-status']);
        await runner.tryRun(['set-option', '-w', '-u', '-t', windowId, 'pane-border-format']);
      }
    }
    return report;
  });
}

/**
 * Closes one member's pane (if it is still there and still the run's) and returns the
 * layout without it.
 */
export async function closeMemberPane(
  runner: TmuxRunner,
  runId: string,
  layout: TmuxLayout,
  member: string,
): Promise<{ layout: TmuxLayout; report: LayoutRemovalReport }> {
  const paneId = layout.paneIds[member];
  const { [member]: _closed, ...paneIds } = layout.paneIds;
  const next = { ...layout, paneIds };
  if (paneId === undefined) return { layout: next, report: { killed: [], skipped: [] } };
  const report = await removeTmuxLayout(runner, runId, {
    ...layout,
    ownedSession: false,
    paneIds: { [member]: paneId },
  });
  return { layout: next, report };
}

/**
 * Re-applies the layout after panes came or went: `main-vertical` with the caller at
 * ~30% in the caller's window, `tiled` in a detached session. A window that is gone is
 * left alone; returns whether the layout was applied.
 */
export function rebalanceLayout(runner: TmuxRunner, layout: TmuxLayout): Promise<boolean> {
  return runner.serialize(async () => {
    if (layout.windowId === undefined) return false;
    const shape = layout.mode === 'caller-window' ? 'main-vertical' : 'tiled';
    if ((await runner.tryRun(['select-layout', '-t', layout.windowId, shape])).exitCode !== 0)
      return false;
    if (layout.mode === 'caller-window' && layout.callerPaneId !== undefined) {
      await runner.tryRun(['resize-pane', '-t', layout.callerPaneId, '-x', '30%']);
    }
    return true;
  });
}

/** A teamkit session as tmux lists it. */
export interface ListedSession {
  sessionId: string;
  name: string;
  /** The run that made it; empty when the session carries no teamkit mark. */
  runId: string;
}

/** Lists the sessions on the runner's server named `teamkit-<8 hex>` (none when no server runs). */
export async function listTeamkitSessions(runner: TmuxRunner): Promise<ListedSession[]> {
  const result = await runner.tryRun([
    'list-sessions',
    '-F',
    `#{session_id}\t#{session_name}\t#{${SESSION_RUN_OPTION}}`,
  ]);
  if (result.exitCode !== 0) return [];
  return result.stdout
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [sessionId = '', name = '', runId = ''] = line.split('\t');
      return { sessionId, name, runId };
    })
    .filter((session) => /^teamkit-[0-9a-f]{8}$/.test(session.name));
}
