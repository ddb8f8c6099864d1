import { TeamkitError } from '@teamkit/team-core';
import {
  layoutSessionName,
  listPanes,
  markMemberPane,
  paneCommand,
  SESSION_RUN_OPTION,
  type TmuxRunner,
} from '@teamkit/team-core/tmux';
import { quote } from 'shell-quote';

/** Where a member's pane goes and what runs in it. */
export interface MemberPaneInput {
  runner: TmuxRunner;
  runId: string;
  member: string;
  color?: string;
  cwd: string;
  /** Variables the member needs on top of the tmux server's environment (`TEAMKIT_*`), set with `-e`. */
  env: Record<string, string>;
  argv: string[];
  /** The caller's pane (`TMUX_PANE`): its window is split. Absent: a detached session per run. */
  callerPaneId?: string;
  /** A file that also receives everything the pane prints. */
  logFile: string;
}

/** The pane a member runs in, and the pid of the member process (the pane's own process). */
export interface MemberPane {
  paneId: string;
  pid: number;
}

const PANE_LINE = /^(%[0-9]+)\t([1-9][0-9]*)$/;

/**
 * Starts a member's command as the process of its own tmux pane, so an interactive agent
 * CLI gets a real terminal and the user watches it work. Inside tmux the caller's window
 * is split (`main-vertical`, the caller keeping ~30%); outside, the run gets a detached
 * session `teamkit-<run-short>` laid out `tiled`. The pane's process is the member: it
 * execs the command, so its pid is the member's pid and the pane closes when it exits.
 * Every tmux call names its target; the command is quoted for the pane's shell.
 */
export function startMemberInPane(input: MemberPaneInput): Promise<MemberPane> {
  const { runner } = input;
  return runner.serialize(async () => {
    const command = paneCommand(input.argv);
    // Given as the pane's environment, not in its command line, so the member's secret
    // is not shown by `ps` or kept as the pane's start command.
    const environment = Object.entries(input.env).flatMap(([key, value]) => [
      '-e',
      `${key}=${value}`,
    ]);
    const spawnFlags = ['-P', '-F', '#{pane_id}\t#{pane_pid}', ...environment];
    const existing = (await listPanes(runner)).filter((pane) => pane.runId === input.runId);
    let output: string;
    let windowTarget: string | undefined;
    let layout: 'main-vertical' | 'tiled';
    if (input.callerPaneId !== undefined) {
      const last = existing.at(-1);
      const direction = existing.length % 2 === 0 ? '-h' : '-v';
      output = await runner.run([
        'split-window',
        direction,
        '-d',
        '-t',
        last?.paneId ?? input.callerPaneId,
        ...spawnFlags,
        '-c',
        input.cwd,
        '--',
        ...command,
      ]);
      layout = 'main-vertical';
      windowTarget = last?.windowId ?? input.callerPaneId;
    } else {
      const session = layoutSessionName(input.runId);
      const hasSession = (await runner.tryRun(['has-session', '-t', `=${session}`])).exitCode === 0;
      if (hasSession) {
        output = await runner.run([
          'split-window',
          '-d',
          '-t',
          `=${session}:`,
          ...spawnFlags,
          '-c',
          input.cwd,
          '--',
          ...command,
        ]);
      } else {
        output = await runner.run([
          'new-session',
          '-d',
          '-s',
          session,
          '-x',
          '200',
          '-y',
          '50',
          ...spawnFlags,
          '-c',
          input.cwd,
          '--',
          ...command,
        ]);
        await runner.run(['set-option', '-t', `=${session}:`, SESSION_RUN_OPTION, input.runId]);
        await runner.run(['set-option', '-w', '-t', `=${session}:`, 'pane-border-status', 'top']);
      }
      layout = 'tiled';
      windowTarget = `=${session}:`;
    }
    const match = PANE_LINE.exec(output.trim());
    if (match === null) {
      throw new TeamkitError(
        'TMUX_FAILED',
        `tmux did not report the pane of ${input.member}: ${JSON.stringify(output)}.`,
        {
          details: { member: input.member, output },
        },
      );
    }
    const paneId = match[1] as string;
    const pid = Number(match[2]);
    await markMemberPane(runner, paneId, input.runId, {
      name: input.member,
      ...(input.color === undefined ? {} : { color: input.color }),
    });
    await runner.run(['pipe-pane', '-o', '-t', paneId, `cat >> ${quote([input.logFile])}`]);
    await runner.tryRun(['select-layout', '-t', windowTarget, layout]);
    if (input.callerPaneId !== undefined)
      await runner.tryRun(['resize-pane', '-t', input.callerPaneId, '-x', '30%']);
    return { paneId, pid };
  });
}
