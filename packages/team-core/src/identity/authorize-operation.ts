import { TeamkitError } from '../errors/index.js';
import type { RuntimeState } from '../schema/index.js';
import { findLead } from '../state/index.js';
import type { TeamkitCaller } from './identify-caller.js';

/** Operations on a whole run: the user's, and the run's lead's. */
export type RunOperation = 'stop' | 'resume' | 'supervise' | 'merge' | 'shutdown-all' | 'interrupt';

const RUN_OPERATION_TEXT: Record<RunOperation, string> = {
  stop: 'stop',
  resume: 'resume',
  supervise: 'supervise',
  merge: 'merge the work of',
  'shutdown-all': 'shut down everyone in',
  interrupt: 'interrupt a member of',
};

/**
 * Refuses a run-wide operation to anyone but the user and the run's lead: a member of
 * another run gets `IDENTITY_MISMATCH`, any other member of this run `PERMISSION_DENIED`.
 */
export function assertMayOperateOnRun(
  caller: TeamkitCaller,
  state: RuntimeState,
  operation: RunOperation,
): void {
  if (caller.kind === 'user') return;
  if (caller.runId !== state.runId) {
    throw new TeamkitError(
      'IDENTITY_MISMATCH',
      `This process is member "${caller.member}" of run ${caller.runId}; it cannot act in run ${state.runId}.`,
      { details: { member: caller.member, run: caller.runId, requested: state.runId } },
    );
  }
  const lead = findLead(state)?.name;
  if (lead !== undefined && caller.member === lead) return;
  throw new TeamkitError(
    'PERMISSION_DENIED',
    `Member "${caller.member}" may not ${RUN_OPERATION_TEXT[operation]} run ${state.runId}: run-wide operations belong to the user and the lead (${lead ?? 'none'}). Ask the lead.`,
    { details: { member: caller.member, runId: state.runId, operation, lead } },
  );
}

/**
 * Refuses to any member an operation that reaches beyond its own run (sweeping finished
 * runs, pruning worktrees, starting runs, writing the user's config): `PERMISSION_DENIED`.
 */
export function assertCallerIsUser(caller: TeamkitCaller, operation: string): void {
  if (caller.kind === 'user') return;
  throw new TeamkitError(
    'PERMISSION_DENIED',
    `Member "${caller.member}" of run ${caller.runId} may not ${operation}: it reaches beyond the member's own run and is the user's to do.`,
    { details: { member: caller.member, runId: caller.runId, operation } },
  );
}
