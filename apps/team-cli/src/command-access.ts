import type { RunOperation, RuntimeState } from '@teamkit/team-core';
import type { CommandContext } from './command-context.js';

// Who may run a member operation (mail, tasks, review, artifacts, permissions, shutdown,
// the goal, merge, report) is the shared tools' roles, checked when `runToolAs` runs the
// tool; the table is in docs/architecture.md. The two checks here are only for what is no
// tool: operations on a whole run, and commands that reach beyond one run.

/**
 * Refuses a command that reaches beyond one run (starting runs, sweeping, pruning
 * worktrees, writing the user's config) to any member: `PERMISSION_DENIED`.
 */
export async function requireUser(context: CommandContext, operation: string): Promise<void> {
  if (context.caller.kind === 'user') return;
  const { assertCallerIsUser } = await import('@teamkit/team-core');
  assertCallerIsUser(context.caller, operation);
}

/**
 * Refuses a run-wide operation that is no tool (stop, resume, supervise, interrupt) to
 * anyone but the user and the lead of that run: `PERMISSION_DENIED` for other members, `IDENTITY_MISMATCH` for
 * a member of another run.
 */
export async function authorizeRunOperation(
  context: CommandContext,
  state: RuntimeState,
  operation: RunOperation,
): Promise<void> {
  const { assertMayOperateOnRun } = await import('@teamkit/team-core');
  assertMayOperateOnRun(context.caller, state, operation);
}
