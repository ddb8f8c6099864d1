import { TeamkitError } from '../errors/index.js';
import { readRunLog } from '../report/run-log.js';
import type { EvidenceKind, RuntimeState } from '../schema/index.js';
import {
  addCriteria,
  attachEvidence,
  readRunState,
  type StateOptions,
  setRunGoal,
  waiveCriterion,
} from '../state/index.js';
import type { TeamkitStore } from '../storage/index.js';
import type { TaskList } from '../tasklist/index.js';
import { resolveCommit } from '../worktree/git-merge.js';
import type { GitRunner } from '../worktree/git-runner.js';

/** Evidence as a caller names it: `ref` may be a commit-ish or a message id prefix. */
export interface EvidenceClaim {
  kind: EvidenceKind;
  ref: string;
  note?: string;
}

/** The seams the goal operations of one caller use. */
export interface GoalParts {
  home: string;
  runId: string;
  caller: string;
  tasks: TaskList;
  git: GitRunner;
  stateOptions: StateOptions;
  /** The store holding the run's event log (message ids are checked there). */
  store: TeamkitStore;
}

function notFound(kind: EvidenceKind, ref: string, why: string): TeamkitError {
  return new TeamkitError('INVALID_INPUT', `No ${kind} ${JSON.stringify(ref)} to attach: ${why}.`, {
    details: { kind, ref },
  });
}

async function resolveMessageId(parts: GoalParts, ref: string): Promise<string> {
  const wanted = ref.toLowerCase();
  if (!/^[0-9a-f-]{4,36}$/.test(wanted)) throw notFound('message', ref, 'not a message id');
  const { store } = parts;
  const { events } = await readRunLog(store, parts.runId);
  const ids = new Set(
    events
      .filter((event) => event.type === 'message.sent')
      .flatMap((event) => event.ids ?? [])
      .filter((id) => id.startsWith(wanted)),
  );
  if (ids.size === 0) throw notFound('message', ref, 'no message of this run has that id');
  if (ids.size > 1) {
    throw new TeamkitError(
      'INVALID_INPUT',
      `"${ref}" matches ${ids.size} messages; give more characters.`,
      { details: { ref, matches: [...ids] } },
    );
  }
  return [...ids][0] as string;
}

/**
 * Checks that evidence names something real and returns its canonical reference: a task
 * of the run that is not deleted, a commit of the run's repository (resolved to its full
 * id), or a message sent in the run (a full id or a unique prefix). Anything else is
 * `INVALID_INPUT` and nothing is attached.
 */
export async function resolveEvidence(
  parts: GoalParts,
  state: RuntimeState,
  claim: EvidenceClaim,
): Promise<string> {
  if (claim.kind === 'task') return (await parts.tasks.getTask(claim.ref)).id;
  if (claim.kind === 'message') return resolveMessageId(parts, claim.ref);
  if (state.repoRoot === undefined)
    throw notFound('commit', claim.ref, 'the run has no repository');
  const commit = await resolveCommit(parts.git, state.repoRoot, claim.ref);
  if (commit === undefined)
    throw notFound('commit', claim.ref, `${state.repoRoot} has no such commit`);
  return commit;
}

/** The goal operations a member client offers, bound to its caller. */
export function goalOperations(parts: GoalParts) {
  const { home, runId, caller, stateOptions } = parts;
  return {
    setGoal: (text: string, criteria: readonly string[] = []) =>
      setRunGoal(home, runId, { text, criteria, by: caller }, stateOptions),
    addCriteria: (texts: readonly string[]) =>
      addCriteria(home, runId, texts, caller, stateOptions),
    async attachEvidence(criterionId: string, claim: EvidenceClaim): Promise<RuntimeState> {
      const state = await readRunState(home, runId, stateOptions);
      const ref = await resolveEvidence(parts, state, claim);
      return attachEvidence(
        home,
        runId,
        criterionId,
        {
          kind: claim.kind,
          ref,
          ...(claim.note === undefined ? {} : { note: claim.note }),
          by: caller,
        },
        stateOptions,
      );
    },
    waiveCriterion: (criterionId: string, reason: string) =>
      waiveCriterion(home, runId, criterionId, { by: caller, reason }, stateOptions),
  };
}
