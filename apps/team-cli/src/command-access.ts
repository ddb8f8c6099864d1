import type { RunOperation, RuntimeState } from '@teamkit/team-core';
import type { CommandContext } from './command-context.js';

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
 * Refuses a run-wide operation (stop, resume, supervise) to anyone but the user and
 * the lead of that run: `PERMISSION_DENIED` for other members, `IDENTITY_MISMATCH` for
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
