import { TeamkitError } from '../errors/index.js';
import type { RunMember, TmuxLayout } from '../schema/runtime-state.js';
import { readRunState, type StateOptions, updateRunState } from '../state/index.js';
import {
  createTmuxLayout,
  isTmuxColor,
  type LayoutMember,
  type LayoutRemovalReport,
  removeTmuxLayout,
} from './tmux-layout.js';
import type { TmuxRunner } from './tmux-runner.js';

/** Input of {@link openRunLayout}. */
export interface OpenRunLayoutInput extends StateOptions {
  home: string;
  runId: string;
  runner: TmuxRunner;
  /** The caller's pane (from `TMUX_PANE`); absent for a detached session. */
  callerPaneId?: string;
  /** The host's attach command for a member; members without one get no pane. */
  attachCommand(member: RunMember): string[] | undefined;
  /** The POSIX shell that runs each quoted command; default `/bin/sh`. */
  shell?: string;
}

/**
 * Opens panes for a run's members ({@link createTmuxLayout}) and records the layout and
 * each member's pane id in the run state, so removal later kills exactly those. If the
 * state cannot be written, the panes are removed again and the error is thrown.
 */
export async function openRunLayout(input: OpenRunLayoutInput): Promise<TmuxLayout> {
  const state = await readRunState(input.home, input.runId, input);
  if (state.tmuxLayout !== undefined) {
    throw new TeamkitError(
      'TMUX_FAILED',
      `Run ${input.runId} already has a tmux layout; remove it first.`,
      { details: { runId: input.runId, reason: 'layout-exists' } },
    );
  }
  const members: LayoutMember[] = [];
  for (const member of state.members) {
    if (member.status === 'terminated' || member.status === 'errored') continue;
    const command = input.attachCommand(member);
    if (command === undefined) continue;
    members.push({
      name: member.name,
      command,
      // A colour tmux cannot use only loses the label colour; it does not cost the pane.
      color: member.color !== undefined && isTmuxColor(member.color) ? member.color : undefined,
      cwd: member.worktreePath,
    });
  }
  const layout = await createTmuxLayout({
    runner: input.runner,
    runId: input.runId,
    members,
    callerPaneId: input.callerPaneId,
    shell: input.shell,
  });
  try {
    await updateRunState(
      input.home,
      input.runId,
      (draft) => {
        if (draft.tmuxLayout !== undefined) {
          throw new TeamkitError(
            'TMUX_FAILED',
            `Run ${input.runId} got another tmux layout meanwhile.`,
            { details: { runId: input.runId, reason: 'layout-exists' } },
          );
        }
        draft.tmuxLayout = layout;
        for (const member of draft.members) {
          const paneId = layout.paneIds[member.name];
          if (paneId !== undefined) member.tmuxPaneId = paneId;
        }
      },
      input,
    );
  } catch (error) {
    await removeTmuxLayout(input.runner, input.runId, layout);
    throw error;
  }
  return layout;
}

/**
 * Removes the layout recorded in a run's state (killing only what the run created) and
 * clears it from the state. A run without a layout reports nothing killed.
 */
export async function closeRunLayout(
  input: {
    home: string;
    runId: string;
    runner: TmuxRunner;
  } & StateOptions,
): Promise<LayoutRemovalReport> {
  const state = await readRunState(input.home, input.runId, input);
  if (state.tmuxLayout === undefined) return { killed: [], skipped: [] };
  const report = await removeTmuxLayout(input.runner, input.runId, state.tmuxLayout);
  await updateRunState(
    input.home,
    input.runId,
    (draft) => {
      delete draft.tmuxLayout;
      for (const member of draft.members) delete member.tmuxPaneId;
    },
    input,
  );
  return report;
}
